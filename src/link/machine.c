/*
 * machine.c - period machine files (machine.h): the parser of the four
 * kinds (software, adapter, machine, period), name resolution against the
 * files built in from machines/ and files beside the one that names them,
 * the costs a machine's software adds up to, and printing.
 */
#include "ipxlab/machine.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/priv/machine_files.h"

/* Nesting of names (a period names machines, which name software). */
#define MAX_DEPTH 4

static const char *const op_keys[IPX_COST_OPS] = {
	[IPX_COST_IPX_SEND] = "ipx-send",
	[IPX_COST_IPX_RECV] = "ipx-recv",
	[IPX_COST_SPX_SEND] = "spx-send",
	[IPX_COST_SPX_RECV] = "spx-recv",
	[IPX_COST_NB_DGRAM_SEND] = "netbios-datagram-send",
	[IPX_COST_NB_DGRAM_RECV] = "netbios-datagram-recv",
	[IPX_COST_NB_SESSION_SEND] = "netbios-session-send",
	[IPX_COST_NB_SESSION_RECV] = "netbios-session-recv",
	[IPX_COST_SHELL_REQUEST] = "shell-request",
	[IPX_COST_SHELL_REPLY] = "shell-reply",
	[IPX_COST_NCP_OPEN] = "ncp-open",
	[IPX_COST_NCP_CLOSE] = "ncp-close",
	[IPX_COST_NCP_READ] = "ncp-read",
	[IPX_COST_NCP_WRITE] = "ncp-write",
	[IPX_COST_NCP_CREATE] = "ncp-create",
	[IPX_COST_NCP_DELETE] = "ncp-delete",
	[IPX_COST_NCP_SEARCH] = "ncp-search",
	[IPX_COST_NCP_LOCK] = "ncp-lock",
	[IPX_COST_NCP_BURST] = "ncp-burst",
	[IPX_COST_NCP_OTHER] = "ncp-other",
	[IPX_COST_START] = "start",
	[IPX_COST_APP_ITEM] = "app-item",
};

const char *ipx_cost_op_key(enum ipx_cost_op op)
{
	return (unsigned)op < IPX_COST_OPS ? op_keys[op] : "?";
}

uint64_t ipx_machine_cost_ns(const struct ipx_machine *m, enum ipx_cost_op op)
{
	double ns = 0;

	if (!m || (unsigned)op >= IPX_COST_OPS)
		return 0;
	for (unsigned i = 0; i < m->nsoftware; i++)
		ns += (double)m->software[i].cost_ns[op];
	return m->speed > 0 ? (uint64_t)llround(ns / m->speed) : 0;
}

uint64_t ipx_machine_copy_ns(const struct ipx_machine *m, size_t len)
{
	if (!m || !m->copy_rate)
		return 0;
	return ((uint64_t)len * 1000000000ull + m->copy_rate - 1) /
	       m->copy_rate;
}

uint32_t ipx_machine_start_bytes(const struct ipx_machine *m)
{
	uint32_t n = 0;

	for (unsigned i = 0; m && i < m->nsoftware; i++)
		n += m->software[i].start_bytes;
	return n;
}

/* The largest of one uint32_t field (at offset 'at') over its software. */
static uint32_t software_max(const struct ipx_machine *m, size_t at)
{
	uint32_t n = 0, v;

	for (unsigned i = 0; m && i < m->nsoftware; i++) {
		memcpy(&v, (const char *)&m->software[i] + at, sizeof(v));
		if (v > n)
			n = v;
	}
	return n;
}

uint32_t ipx_machine_cache_buffers(const struct ipx_machine *m)
{
	return software_max(m, offsetof(struct ipx_software, cache_buffers));
}

uint64_t ipx_machine_cache_fill_ns(const struct ipx_machine *m, size_t len)
{
	uint64_t rate = 0;

	for (unsigned i = 0; m && i < m->nsoftware; i++)
		if (m->software[i].cache_fill_rate > rate)
			rate = m->software[i].cache_fill_rate;
	if (!rate || !len || m->speed <= 0)
		return 0;
	return (uint64_t)llround((double)len * 1e9 / ((double)rate * m->speed));
}

uint32_t ipx_machine_dir_writes(const struct ipx_machine *m)
{
	return software_max(m, offsetof(struct ipx_software, dir_writes));
}

/* ---- the built-in files ---- */

const char *ipx_machine_text(const char *kind, const char *name)
{
	for (size_t i = 0; i < ipx_machine_nfiles; i++)
		if (!strcmp(ipx_machine_files[i].kind, kind) &&
		    !strcmp(ipx_machine_files[i].name, name))
			return ipx_machine_files[i].text;
	return NULL;
}

void ipx_machine_names(const char *kind, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < ipx_machine_nfiles; i++) {
		if (strcmp(ipx_machine_files[i].kind, kind))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? ", " : "", ipx_machine_files[i].name);
		if (n >= len)
			return;
	}
}

const char *ipx_period_names(void)
{
	static char names[512];

	if (!names[0])
		ipx_machine_names("period", names, sizeof(names));
	return names;
}

/* ---- parsing ---- */

enum kind { KIND_SOFTWARE, KIND_ADAPTER, KIND_MACHINE, KIND_PERIOD };
static const char *const kind_names[] = { "software", "adapter", "machine",
					  "period" };

/* What one parse fills: one of the four. */
struct target {
	enum kind kind;
	union {
		struct ipx_software *sw;
		struct ipx_adapter_model *ad;
		struct ipx_machine *m;
		struct ipx_period *p;
	} u;
};

struct ctx {
	const char *dir;
	int depth;
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return IPX_ECONFIG;
}

static int parse_text(const char *text, size_t len, const char *file,
		      struct ctx *c, struct target *t, char *err,
		      size_t errlen);

/* Read a whole small file; IPX_EIO with "PATH: why" when it cannot. */
static int slurp(const char *path, char **out, size_t *outlen, char *err,
		 size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return IPX_EIO;
	}
	buf = malloc(65536);
	if (!buf) {
		fclose(f);
		return IPX_ENOMEM;
	}
	n = fread(buf, 1, 65536, f);
	if (ferror(f) || n == 65536) {
		snprintf(err, errlen, "%s: %s", path,
			 n == 65536 ? "larger than 64 KB" : "cannot read it");
		fclose(f);
		free(buf);
		return n == 65536 ? IPX_ECONFIG : IPX_EIO;
	}
	fclose(f);
	*out = buf;
	*outlen = n;
	return IPX_OK;
}

/* The directory part of a path ("." when none) into buf. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/*
 * Fill t from the file of its kind called 'name': built in, else
 * DIR/NAME.KIND. msg gets the reason it could not (for the caller's
 * "FILE:LINE: " before it).
 */
static int load_named(const char *name, struct ctx *c, struct target *t,
		      char *msg, size_t msglen)
{
	const char *kind = kind_names[t->kind];
	const char *text = ipx_machine_text(kind, name);
	char label[96], path[512], sub[900], dir[400];
	struct ctx inner = { c->dir, c->depth + 1 };
	char *buf = NULL;
	size_t len;
	int rc;

	if (c->depth >= MAX_DEPTH)
		return fail(msg, msglen, "names nest deeper than %d at '%s'",
			    MAX_DEPTH, name);
	if (text) {
		snprintf(label, sizeof(label), "%s.%s", name, kind);
		inner.dir = NULL;	/* built-in files name built-in ones */
		rc = parse_text(text, strlen(text), label, &inner, t, sub,
				sizeof(sub));
		if (rc != IPX_OK)
			return fail(msg, msglen, "%s", sub);
		return IPX_OK;
	}
	if (strchr(name, '/') || !c->dir) {
		char names[400];

		ipx_machine_names(kind, names, sizeof(names));
		return fail(msg, msglen, "no %s named '%s' (there are %s)",
			    kind, name, names);
	}
	snprintf(path, sizeof(path), "%s/%s.%s", c->dir, name, kind);
	rc = slurp(path, &buf, &len, sub, sizeof(sub));
	if (rc != IPX_OK) {
		char names[400];

		ipx_machine_names(kind, names, sizeof(names));
		if (rc == IPX_EIO)
			return fail(msg, msglen,
				    "no %s named '%s' (there are %s, or a "
				    "file %s)",
				    kind, name, names, path);
		return fail(msg, msglen, "%s", sub);
	}
	dir_of(path, dir, sizeof(dir));
	inner.dir = dir;
	rc = parse_text(buf, len, path, &inner, t, sub, sizeof(sub));
	free(buf);
	if (rc != IPX_OK)
		return fail(msg, msglen, "%s", sub);
	return IPX_OK;
}

static int set_text(char *dst, size_t size, const char *v, const char *key,
		    char *msg, size_t msglen)
{
	if (strlen(v) >= size)
		return fail(msg, msglen, "%s is longer than %zu characters",
			    key, size - 1);
	strcpy(dst, v);
	return IPX_OK;
}

static int time_val(const char *key, const char *v, uint64_t *out, char *msg,
		    size_t msglen)
{
	if (ipx_profile_parse_time(v, out) != IPX_OK)
		return fail(msg, msglen,
			    "%s must be a time such as 2.5ms, 800us or 0 "
			    "(got '%s')",
			    key, v);
	return IPX_OK;
}

static int size_val(const char *key, const char *v, uint32_t *out,
		    char *msg, size_t msglen)
{
	if (ipx_profile_parse_size(v, out) != IPX_OK)
		return fail(msg, msglen,
			    "%s must be a size in bytes such as 4096 or 64K "
			    "(got '%s')",
			    key, v);
	return IPX_OK;
}

static int rate_val(const char *key, const char *v, uint64_t *out,
		    const char *unit, char *msg, size_t msglen)
{
	if (ipx_profile_parse_rate(v, out) != IPX_OK)
		return fail(msg, msglen,
			    "%s must be %s such as 2M, 950k or 0 (got '%s')",
			    key, unit, v);
	return IPX_OK;
}

static int count_val(const char *key, const char *v, unsigned long max,
		     uint32_t *out, char *msg, size_t msglen)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!*v || *end || *v == '-' || *v == '+' || n > max)
		return fail(msg, msglen,
			    "%s must be a count from 0 to %lu (got '%s')", key,
			    max, v);
	*out = (uint32_t)n;
	return IPX_OK;
}

static int software_key(struct ipx_software *sw, const char *key,
			const char *v, char *msg, size_t msglen)
{
	for (int op = 0; op < IPX_COST_OPS; op++)
		if (!strcmp(key, op_keys[op]))
			return time_val(key, v, &sw->cost_ns[op], msg, msglen);
	if (!strcmp(key, "start-bytes"))
		return size_val(key, v, &sw->start_bytes, msg, msglen);
	if (!strcmp(key, "cache-buffers"))
		return count_val(key, v, 64, &sw->cache_buffers, msg, msglen);
	if (!strcmp(key, "cache-fill"))
		return rate_val(key, v, &sw->cache_fill_rate,
				"a rate in bytes/s", msg, msglen);
	if (!strcmp(key, "dir-writes"))
		return count_val(key, v, 16, &sw->dir_writes, msg, msglen);
	char known[600] = "kind, base, what, start-bytes, cache-buffers, "
			  "cache-fill, dir-writes";

	for (int op = 0; op < IPX_COST_OPS; op++) {
		size_t n = strlen(known);

		snprintf(known + n, sizeof(known) - n, ", %s", op_keys[op]);
	}
	return fail(msg, msglen, "unknown software setting '%s' (one of %s)",
		    key, known);
}

static int adapter_key(struct ipx_adapter_model *ad, const char *key,
		       const char *v, char *msg, size_t msglen)
{
	struct ipx_adapter *a = &ad->adapter;

	if (!strcmp(key, "bus")) {
		if (strcmp(v, "8") && strcmp(v, "16") && strcmp(v, "32"))
			return fail(msg, msglen,
				    "bus must be 8, 16 or 32 (got '%s')", v);
		ad->bus = (uint32_t)atoi(v);
		return IPX_OK;
	}
	if (!strcmp(key, "memory"))
		return size_val(key, v, &a->memory, msg, msglen);
	if (!strcmp(key, "tx-buffer-size"))
		return size_val(key, v, &a->tx_size, msg, msglen);
	if (!strcmp(key, "rx-buffer-size"))
		return size_val(key, v, &a->rx_size, msg, msglen);
	if (!strcmp(key, "copy"))
		return rate_val(key, v, &a->copy_rate, "a rate in bits/s", msg,
				msglen);
	if (!strcmp(key, "rx-buffer-cost"))
		return time_val(key, v, &a->rx_cost_ns, msg, msglen);
	if (!strcmp(key, "tx-buffers")) {
		if (strcmp(v, "1") && strcmp(v, "2"))
			return fail(msg, msglen,
				    "tx-buffers must be 1 or 2 (got '%s')", v);
		a->tx_buffers = (uint32_t)atoi(v);
		return IPX_OK;
	}
	return fail(msg, msglen,
		    "unknown adapter setting '%s' (one of kind, base, what, "
		    "bus, memory, tx-buffers, tx-buffer-size, rx-buffer-size, "
		    "copy, rx-buffer-cost)",
		    key);
}

static int machine_key(struct ipx_machine *m, const char *key, char *v,
		       struct ctx *c, char *msg, size_t msglen)
{
	if (!strcmp(key, "speed")) {
		char *end;
		double s;

		errno = 0;
		s = strtod(v, &end);
		if (end == v || *end || errno || !isfinite(s) || s <= 0 ||
		    s > 10000)
			return fail(msg, msglen,
				    "speed must be a number above 0 such as "
				    "1 or 3.2 (the 8 MHz 80286 is 1; got '%s')",
				    v);
		m->speed = s;
		return IPX_OK;
	}
	if (!strcmp(key, "copy-rate"))
		return rate_val(key, v, &m->copy_rate, "a rate in bytes/s",
				msg, msglen);
	if (!strcmp(key, "disk-seek"))
		return time_val(key, v, &m->seek_ns, msg, msglen);
	if (!strcmp(key, "disk-rate"))
		return rate_val(key, v, &m->disk_rate, "a rate in bytes/s",
				msg, msglen);
	if (!strcmp(key, "cache"))
		return size_val(key, v, &m->cache, msg, msglen);
	if (!strcmp(key, "cache-block"))
		return size_val(key, v, &m->cache_block, msg, msglen);
	if (!strcmp(key, "adapter")) {
		struct ipx_adapter_model ad = { 0 };
		struct target t = { KIND_ADAPTER, { .ad = &ad } };
		int rc = load_named(v, c, &t, msg, msglen);

		if (rc != IPX_OK)
			return rc;
		snprintf(ad.name, sizeof(ad.name), "%s", v);
		m->adapter = ad;
		m->have_adapter = true;
		return IPX_OK;
	}
	if (!strcmp(key, "software")) {
		/* one or more names; replaces what a base gave */
		char *save = NULL;

		m->nsoftware = 0;
		for (char *w = strtok_r(v, " \t,", &save); w;
		     w = strtok_r(NULL, " \t,", &save)) {
			struct ipx_software sw = { 0 };
			struct target t = { KIND_SOFTWARE, { .sw = &sw } };
			int rc;

			if (m->nsoftware == IPX_MACHINE_MAX_SOFTWARE)
				return fail(msg, msglen,
					    "at most %d programs in 'software'",
					    IPX_MACHINE_MAX_SOFTWARE);
			rc = load_named(w, c, &t, msg, msglen);
			if (rc != IPX_OK)
				return rc;
			snprintf(sw.name, sizeof(sw.name), "%s", w);
			m->software[m->nsoftware++] = sw;
		}
		return IPX_OK;
	}
	return fail(msg, msglen,
		    "unknown machine setting '%s' (one of kind, base, what, "
		    "speed, copy-rate, disk-seek, disk-rate, cache, "
		    "cache-block, adapter, software)",
		    key);
}

static int profile_val(const char *key, const char *v, struct ctx *c,
		       struct ipx_profile *out, char *msg, size_t msglen)
{
	char path[512], sub[700], label[64];
	const char *text = ipx_machine_text("profile", v);

	if (ipx_profile_named(v, out) == IPX_OK)
		return IPX_OK;
	if (text) {	/* a profile of machines/ (a bridge refitted) */
		snprintf(label, sizeof(label), "%s.profile", v);
		if (ipx_profile_parse(text, strlen(text), label, out, sub,
				      sizeof(sub)) != IPX_OK)
			return fail(msg, msglen, "%s: %s", key, sub);
		snprintf(out->name, sizeof(out->name), "%s", v);
		return IPX_OK;
	}
	if (c->dir && !strchr(v, '/')) {
		snprintf(path, sizeof(path), "%s/%s.profile", c->dir, v);
		if (ipx_profile_load(path, out, sub, sizeof(sub)) == IPX_OK)
			return IPX_OK;
		FILE *f = fopen(path, "r");

		if (f) {
			fclose(f);
			return fail(msg, msglen, "%s: %s", key, sub);
		}
	}
	return fail(msg, msglen,
		    "%s: no link profile named '%s' (there are %s%s)", key, v,
		    ipx_profile_names, c->dir ? ", or a file NAME.profile" : "");
}

static int period_key(struct ipx_period *p, const char *key, const char *v,
		      struct ctx *c, char *msg, size_t msglen)
{
	if (!strcmp(key, "wire"))
		return profile_val(key, v, c, &p->wire, msg, msglen);
	if (!strcmp(key, "wan")) {
		int rc = profile_val(key, v, c, &p->wan, msg, msglen);

		if (rc == IPX_OK && (!p->wan.rx_buffer || !p->wan.tx_buffer))
			return fail(msg, msglen,
				    "wan: profile '%s' has no bridge buffers "
				    "(rx-buffer, tx-buffer), as isn has",
				    v);
		p->have_wan = rc == IPX_OK;
		return rc;
	}
	if (!strcmp(key, "server") || !strcmp(key, "station")) {
		struct ipx_machine m = { 0 };
		struct target t = { KIND_MACHINE, { .m = &m } };
		int rc = load_named(v, c, &t, msg, msglen);

		if (rc != IPX_OK)
			return rc;
		snprintf(m.name, sizeof(m.name), "%s", v);
		if (!strcmp(key, "server"))
			p->server = m;
		else
			p->station = m;
		return IPX_OK;
	}
	if (!strcmp(key, "server-adapter") || !strcmp(key, "station-adapter") ||
	    !strcmp(key, "server-software") ||
	    !strcmp(key, "station-software")) {
		/* the machine's own keys, on the period's machine */
		bool server = !strncmp(key, "server", 6);
		struct ipx_machine *m = server ? &p->server : &p->station;
		char sub[256];

		if (!m->name[0])
			return fail(msg, msglen,
				    "%s must come after '%s'", key,
				    server ? "server" : "station");
		snprintf(sub, sizeof(sub), "%s", v);
		return machine_key(m, strchr(key, '-') + 1, sub, c, msg,
				   msglen);
	}
	if (!strcmp(key, "max-packet")) {
		int rc = size_val(key, v, &p->max_packet, msg, msglen);

		if (rc == IPX_OK && p->max_packet &&
		    (p->max_packet < 64 || p->max_packet > 65535))
			return fail(msg, msglen,
				    "max-packet must be 0 or 64..65535 bytes "
				    "(got '%s')",
				    v);
		return rc;
	}
	return fail(msg, msglen,
		    "unknown period setting '%s' (one of kind, base, what, "
		    "wire, wan, server, station, server-adapter, "
		    "station-adapter, server-software, station-software, "
		    "max-packet)",
		    key);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One setting; 'seen' counts those before it. */
static int parse_line(char *line, struct ctx *c, struct target *t,
		      unsigned *seen, char *msg, size_t msglen)
{
	char *key = trim(line), *val;

	if (!*key)
		return IPX_OK;
	val = key + strcspn(key, " \t");
	if (*val) {
		*val++ = '\0';
		val = trim(val);
	}
	if (!*val)
		return fail(msg, msglen, "'%s' needs a value", key);
	if (!strcmp(key, "kind")) {
		if (*seen)
			return fail(msg, msglen,
				    "'kind' must be the first setting");
		if (strcmp(val, kind_names[t->kind]))
			return fail(msg, msglen,
				    "this must be a %s file (kind %s; got "
				    "'kind %s')",
				    kind_names[t->kind], kind_names[t->kind],
				    val);
		(*seen)++;
		return IPX_OK;
	}
	if (!*seen)
		return fail(msg, msglen,
			    "the first setting must be 'kind %s'",
			    kind_names[t->kind]);
	(*seen)++;
	if (!strcmp(key, "base")) {
		if (*seen != 2)
			return fail(msg, msglen,
				    "'base' must come right after 'kind'");
		return load_named(val, c, t, msg, msglen);
	}
	if (!strcmp(key, "what")) {
		char *dst = t->kind == KIND_SOFTWARE	? t->u.sw->what
			    : t->kind == KIND_ADAPTER	? t->u.ad->what
			    : t->kind == KIND_MACHINE	? t->u.m->what
							: t->u.p->what;

		return set_text(dst, IPX_MACHINE_WHAT, val, key, msg, msglen);
	}
	switch (t->kind) {
	case KIND_SOFTWARE:
		return software_key(t->u.sw, key, val, msg, msglen);
	case KIND_ADAPTER:
		return adapter_key(t->u.ad, key, val, msg, msglen);
	case KIND_MACHINE:
		return machine_key(t->u.m, key, val, c, msg, msglen);
	case KIND_PERIOD:
		return period_key(t->u.p, key, val, c, msg, msglen);
	}
	return IPX_EINVAL;
}

/* The whole file's consistency, after its last line. */
static int check(struct target *t, const char *file, char *err,
		 size_t errlen)
{
	char msg[600];

	switch (t->kind) {
	case KIND_SOFTWARE:
		return IPX_OK;
	case KIND_ADAPTER: {
		/* the buffers against the memory, on the largest wire it
		 * could sit on (no header: only the sizes matter here) */
		struct ipx_profile p = { .header = 0, .max_frame = 65535 };

		if (t->u.ad->adapter.memory &&
		    ipx_adapter_check(&t->u.ad->adapter, &p, msg,
				      sizeof(msg)) != IPX_OK)
			return fail(err, errlen, "%s: %s", file, msg);
		return IPX_OK;
	}
	case KIND_MACHINE: {
		struct ipx_machine *m = t->u.m;

		if (m->speed <= 0)
			return fail(err, errlen, "%s: no speed (the 8 MHz "
						 "80286 is 1)",
				    file);
		if ((m->seek_ns || m->cache) && !m->disk_rate)
			return fail(err, errlen,
				    "%s: a disk-seek or a cache needs a "
				    "disk-rate",
				    file);
		if (m->cache && !m->cache_block)
			return fail(err, errlen,
				    "%s: a cache needs a cache-block size",
				    file);
		if (m->cache_block && m->cache && m->cache < m->cache_block)
			return fail(err, errlen,
				    "%s: cache %u bytes cannot hold one block "
				    "of %u",
				    file, m->cache, m->cache_block);
		return IPX_OK;
	}
	case KIND_PERIOD: {
		struct ipx_period *p = t->u.p;

		if (!p->wire.name[0])
			return fail(err, errlen,
				    "%s: no wire (a link profile: %s)", file,
				    ipx_profile_names);
		if (!p->server.name[0] || !p->station.name[0])
			return fail(err, errlen,
				    "%s: a period needs a server and a "
				    "station machine",
				    file);
		for (int i = 0; i < 2; i++) {
			const struct ipx_machine *m =
				i ? &p->station : &p->server;

			if (m->have_adapter && m->adapter.adapter.memory &&
			    ipx_adapter_check(&m->adapter.adapter, &p->wire,
					      msg, sizeof(msg)) != IPX_OK)
				return fail(err, errlen,
					    "%s: the %s's adapter %s on %s: %s",
					    file, i ? "station" : "server",
					    m->adapter.name, p->wire.name, msg);
		}
		if (p->max_packet &&
		    p->max_packet > ipx_profile_mtu(&p->wire))
			return fail(err, errlen,
				    "%s: max-packet %u is larger than the "
				    "wire's largest IPX packet (%zu on %s)",
				    file, p->max_packet,
				    ipx_profile_mtu(&p->wire), p->wire.name);
		return IPX_OK;
	}
	}
	return IPX_OK;
}

static int parse_text(const char *text, size_t len, const char *file,
		      struct ctx *c, struct target *t, char *err,
		      size_t errlen)
{
	char line[512], msg[900];
	unsigned lineno = 0, seen = 0;
	size_t pos = 0;
	int rc;

	while (pos < len) {
		size_t end = pos, n;
		char *hash;

		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		lineno++;
		if (n >= sizeof(line))
			return fail(err, errlen, "%s:%u: line longer than %zu",
				    file, lineno, sizeof(line) - 1);
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = end + 1;
		if (memchr(line, '\0', n))
			return fail(err, errlen, "%s:%u: a NUL byte", file,
				    lineno);
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		rc = parse_line(line, c, t, &seen, msg, sizeof(msg));
		if (rc != IPX_OK)
			return fail(err, errlen, "%s:%u: %s", file, lineno, msg);
	}
	if (!seen)
		return fail(err, errlen, "%s: no settings (start with 'kind %s')",
			    file, kind_names[t->kind]);
	return check(t, file, err, errlen);
}

/* Parse one kind from text; the name is the file's base name. */
static int parse_kind(const char *text, size_t len, const char *file,
		      const char *dir, struct target *t, char *name,
		      char *err, size_t errlen)
{
	struct ctx c = { dir, 0 };
	const char *base = strrchr(file, '/');
	char *dot;

	base = base ? base + 1 : file;
	snprintf(name, IPX_MACHINE_NAME, "%s", base);
	dot = strrchr(name, '.');
	if (dot && dot != name)
		*dot = '\0';
	return parse_text(text, len, file, &c, t, err, errlen);
}

int ipx_period_parse(const char *text, size_t len, const char *file,
		     const char *dir, struct ipx_period *out, char *err,
		     size_t errlen)
{
	struct ipx_period p = { 0 };
	struct target t = { KIND_PERIOD, { .p = &p } };
	int rc = parse_kind(text, len, file, dir, &t, p.name, err, errlen);

	if (rc == IPX_OK)
		*out = p;
	return rc;
}

int ipx_machine_parse(const char *text, size_t len, const char *file,
		      const char *dir, struct ipx_machine *out, char *err,
		      size_t errlen)
{
	struct ipx_machine m = { 0 };
	struct target t = { KIND_MACHINE, { .m = &m } };
	int rc = parse_kind(text, len, file, dir, &t, m.name, err, errlen);

	if (rc == IPX_OK)
		*out = m;
	return rc;
}

/* Named (built in) or a file; kind "period" or "machine". */
static int resolve(const char *spec, bool period, void *out, char *err,
		   size_t errlen)
{
	const char *kind = period ? "period" : "machine";
	const char *text = ipx_machine_text(kind, spec);
	char label[96], dir[400], names[512];
	char *buf;
	size_t len;
	int rc;

	if (text) {
		snprintf(label, sizeof(label), "%s.%s", spec, kind);
		return period ? ipx_period_parse(text, strlen(text), label,
						 NULL, out, err, errlen)
			      : ipx_machine_parse(text, strlen(text), label,
						  NULL, out, err, errlen);
	}
	ipx_machine_names(kind, names, sizeof(names));
	if (!strchr(spec, '/') && !strchr(spec, '.')) {
		FILE *f = fopen(spec, "r");

		if (!f) {
			snprintf(err, errlen,
				 "no %s named '%s' (there are %s, or give a "
				 "%s file)",
				 kind, spec, names, kind);
			return IPX_ENOTFOUND;
		}
		fclose(f);
	}
	rc = slurp(spec, &buf, &len, err, errlen);
	if (rc != IPX_OK)
		return rc;
	dir_of(spec, dir, sizeof(dir));
	rc = period ? ipx_period_parse(buf, len, spec, dir, out, err, errlen)
		    : ipx_machine_parse(buf, len, spec, dir, out, err, errlen);
	free(buf);
	return rc;
}

int ipx_period_resolve(const char *spec, struct ipx_period *out, char *err,
		       size_t errlen)
{
	return resolve(spec, true, out, err, errlen);
}

int ipx_machine_resolve(const char *spec, struct ipx_machine *out, char *err,
			size_t errlen)
{
	return resolve(spec, false, out, err, errlen);
}

/* ---- printing ---- */

static void print_ns(FILE *out, uint64_t ns)
{
	if (ns >= 1000000)
		fprintf(out, "%.3fms", (double)ns / 1e6);
	else
		fprintf(out, "%.1fus", (double)ns / 1e3);
}

void ipx_machine_print(const struct ipx_machine *m, const char *role,
		       FILE *out)
{
	const char *in = role && *role ? "    " : "  ";

	if (role && *role)
		fprintf(out, "  %s: %s (%s)\n", role, m->name, m->what);
	else
		fprintf(out, "machine %s: %s\n", m->name, m->what);
	fprintf(out, "%sspeed %.3g x the 8 MHz 80286", in, m->speed);
	if (m->copy_rate)
		fprintf(out, ", copies %.3g MB/s", (double)m->copy_rate / 1e6);
	fprintf(out, "\n");
	if (m->disk_rate) {
		fprintf(out, "%sdisk: seek ", in);
		print_ns(out, m->seek_ns);
		fprintf(out, ", %.3g MB/s", (double)m->disk_rate / 1e6);
		if (m->cache)
			fprintf(out, ", cache %u KB in %u-byte blocks",
				m->cache / 1024, m->cache_block);
		fprintf(out, "\n");
	}
	if (m->have_adapter) {
		const struct ipx_adapter *a = &m->adapter.adapter;

		fprintf(out, "%sadapter %s: %s\n", in, m->adapter.name,
			m->adapter.what);
		fprintf(out, "%s  %u-bit bus, copies %.3g Mbit/s", in,
			m->adapter.bus, (double)a->copy_rate / 1e6);
		if (a->memory)
			fprintf(out,
				", %u KB memory, %u x %u-byte tx, %u-byte rx "
				"buffers",
				a->memory / 1024, a->tx_buffers, a->tx_size,
				a->rx_size);
		fprintf(out, "\n");
	}
	for (unsigned i = 0; i < m->nsoftware; i++)
		fprintf(out, "%ssoftware %s: %s\n", in, m->software[i].name,
			m->software[i].what);
	for (int op = 0; op < IPX_COST_OPS; op++) {
		uint64_t ns = ipx_machine_cost_ns(m, (enum ipx_cost_op)op);

		if (!ns)
			continue;
		fprintf(out, "%s  %-23s ", in, op_keys[op]);
		print_ns(out, ns);
		fprintf(out, "\n");
	}
	if (ipx_machine_start_bytes(m))
		fprintf(out, "%s  %-23s %u bytes\n", in, "start-bytes",
			ipx_machine_start_bytes(m));
	if (ipx_machine_cache_buffers(m))
		fprintf(out, "%s  %-23s %u (blocks of the negotiated buffer)\n",
			in, "cache-buffers", ipx_machine_cache_buffers(m));
	if (ipx_machine_cache_fill_ns(m, 1024)) {
		fprintf(out, "%s  %-23s ", in, "cache-fill");
		print_ns(out, ipx_machine_cache_fill_ns(m, 1024));
		fprintf(out, " a 1,024-byte block\n");
	}
	if (ipx_machine_dir_writes(m))
		fprintf(out, "%s  %-23s %u (blocks at once, a seek each)\n", in,
			"dir-writes", ipx_machine_dir_writes(m));
}

void ipx_period_print(const struct ipx_period *p, FILE *out)
{
	fprintf(out, "period %s: %s\n", p->name, p->what);
	fprintf(out, "  wire %s: %.3g Mbit/s, frames up to %u bytes\n",
		p->wire.name, (double)p->wire.rate / 1e6, p->wire.max_frame);
	if (p->have_wan)
		fprintf(out, "  bridged over %s: %.3g kbit/s trunk\n",
			p->wan.name, (double)p->wan.rate / 1e3);
	if (p->max_packet)
		fprintf(out, "  the workstation's IPX packets: at most %u "
			     "bytes\n",
			p->max_packet);
	ipx_machine_print(&p->server, "server", out);
	ipx_machine_print(&p->station, "station", out);
}
