/*
 * config.c - the SHELL.CFG parameter table and its parser (see config.h).
 *
 * Defaults and ranges follow Novell's SHELL.CFG / NET.CFG documentation
 * (docs/config.md); where the 1990
 * documentation states no range, the choice is recorded in docs/config.md.
 */
#include "ipxlab/config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"

#define P(name, field, def, min, max, idef, unit, help)                     \
	{ name, offsetof(struct ipx_config, field), def, min, max, idef, unit, \
	  help }

static const struct ipx_config_param params[] = {
	P("IPX SOCKETS", ipx_sockets, 20, 10, 150, 20, IPX_CFG_COUNT_UNIT,
	  "sockets open at once in one node"),
	P("IPX RETRY COUNT", ipx_retry_count, 20, 0, 255, 20, IPX_CFG_COUNT_UNIT,
	  "resends by SPX before a connection is declared broken"),
	P("SPX CONNECTIONS", spx_connections, 15, 5, 150, 15, IPX_CFG_COUNT_UNIT,
	  "SPX connections open at once"),
	P("SPX LISTEN TIMEOUT", spx_listen_timeout, 108, 0, 65535, 108,
	  IPX_CFG_TICKS, "silence before a watchdog request is sent"),
	P("SPX VERIFY TIMEOUT", spx_verify_timeout, 54, 0, 65535, 54,
	  IPX_CFG_TICKS, "how often an idle side shows it is alive"),
	P("SPX ABORT TIMEOUT", spx_abort_timeout, 540, 0, 65535, 540,
	  IPX_CFG_TICKS, "silence before a connection is declared dead"),
	P("NETBIOS SESSIONS", netbios_sessions, 32, 4, 250, 32,
	  IPX_CFG_COUNT_UNIT, "NetBIOS sessions open at once"),
	P("NETBIOS COMMANDS", netbios_commands, 12, 4, 250, 12,
	  IPX_CFG_COUNT_UNIT, "outstanding NetBIOS requests"),
	P("NETBIOS SEND BUFFERS", netbios_send_buffers, 6, 4, 20, 6,
	  IPX_CFG_COUNT_UNIT, "NetBIOS send buffers"),
	P("NETBIOS RECEIVE BUFFERS", netbios_receive_buffers, 6, 4, 20, 6,
	  IPX_CFG_COUNT_UNIT, "NetBIOS receive buffers"),
	P("NETBIOS LISTEN TIMEOUT", netbios_listen_timeout, 108, 1, 65535, 108,
	  IPX_CFG_TICKS, "session silence before a probe"),
	P("NETBIOS VERIFY TIMEOUT", netbios_verify_timeout, 54, 4, 65535, 54,
	  IPX_CFG_TICKS, "how often an idle session shows it is alive"),
	P("NETBIOS ABORT TIMEOUT", netbios_abort_timeout, 540, 1, 65535, 540,
	  IPX_CFG_TICKS, "session silence before it is declared dead"),
	P("NETBIOS RETRY DELAY", netbios_retry_delay, 500, 10, 65535, 500,
	  IPX_CFG_MSEC, "wait for a session ACK before resending"),
	P("NETBIOS RETRY COUNT", netbios_retry_count, 10, 1, 255, 20,
	  IPX_CFG_COUNT_UNIT, "resends before a session is declared broken"),
	P("NETBIOS BROADCAST COUNT", netbios_broadcast_count, 2, 1, 255, 4,
	  IPX_CFG_COUNT_UNIT, "name claim and query broadcasts"),
	P("NETBIOS BROADCAST DELAY", netbios_broadcast_delay, 18, 1, 65535, 38,
	  IPX_CFG_TICKS, "time between those broadcasts"),
	P("NETBIOS INTERNET", netbios_internet, 0, 0, 1, 0, IPX_CFG_ONOFF,
	  "ON: name broadcasts suit a routed internetwork"),
};

static_assert(sizeof(params) / sizeof(params[0]) == IPX_CFG_NPARAMS,
	      "IPX_CFG_NPARAMS must match the parameter table");

/* Keys the 1990 drivers knew that ipxlab refuses with a specific reason. */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
	{ "IPATCH", "IPATCH patches the IPX driver's memory; ipxlab has no "
		    "such memory to patch: remove the line" },
	{ "NPATCH", "NPATCH patches the NetBIOS driver's memory; ipxlab has "
		    "no such memory to patch: remove the line" },
};

#define NPARAMS (sizeof(params) / sizeof(params[0]))

size_t ipx_config_param_count(void)
{
	return NPARAMS;
}

const struct ipx_config_param *ipx_config_param_at(size_t index)
{
	return index < NPARAMS ? &params[index] : NULL;
}

static uint32_t *field(struct ipx_config *cfg, size_t index)
{
	return (uint32_t *)((char *)cfg + params[index].offset);
}

uint32_t ipx_config_value(const struct ipx_config *cfg, size_t index)
{
	if (index >= NPARAMS)
		return 0;
	return *(const uint32_t *)((const char *)cfg + params[index].offset);
}

/* Upper-case 'in' with every run of blanks made one space, trimmed. */
static void normalise(const char *in, size_t len, char *out, size_t outlen)
{
	size_t o = 0;
	bool space = false;

	for (size_t i = 0; i < len && o + 1 < outlen; i++) {
		unsigned char c = (unsigned char)in[i];

		if (isspace(c)) {
			space = o > 0;
			continue;
		}
		if (space && o + 2 < outlen)
			out[o++] = ' ';
		space = false;
		out[o++] = (char)toupper(c);
	}
	out[o] = '\0';
}

int ipx_config_find(const char *name)
{
	char key[64];

	normalise(name, strlen(name), key, sizeof(key));
	for (size_t i = 0; i < NPARAMS; i++)
		if (strcmp(key, params[i].name) == 0)
			return (int)i;
	return -1;
}

void ipx_config_defaults(struct ipx_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < NPARAMS; i++) {
		*field(cfg, i) = params[i].def;
		cfg->origin[i].kind = IPX_CFG_DEFAULT;
	}
}

static int fail(char *err, size_t errlen, const char *name, unsigned line,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail(char *err, size_t errlen, const char *name, unsigned line,
		const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err && errlen)
		snprintf(err, errlen, "%s:%u: %s", name, line, msg);
	return IPX_ECONFIG;
}

/* Parse a value for parameter i; returns 0 or -1 with why set. */
static int parse_value(size_t i, const char *v, uint32_t *out,
		       const char **why)
{
	const struct ipx_config_param *p = &params[i];
	unsigned long long n = 0;

	if (p->unit == IPX_CFG_ONOFF) {
		char up[8];

		normalise(v, strlen(v), up, sizeof(up));
		if (!strcmp(up, "ON")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(up, "OFF")) {
			*out = 0;
			return 0;
		}
		*why = "expects ON or OFF";
		return -1;
	}
	if (!*v) {
		*why = "has no value";
		return -1;
	}
	for (const char *c = v; *c; c++) {
		if (!isdigit((unsigned char)*c)) {
			*why = "not a whole decimal number";
			return -1;
		}
		n = n * 10 + (unsigned)(*c - '0');
		if (n > 0xFFFFFFFFull)
			break;
	}
	if (n < p->min || n > p->max) {
		*why = "out of range";
		return -1;
	}
	*out = (uint32_t)n;
	return 0;
}

const char *ipx_config_unit_name(enum ipx_config_unit u)
{
	switch (u) {
	case IPX_CFG_TICKS:
		return " ticks";
	case IPX_CFG_MSEC:
		return " ms";
	default:
		return "";
	}
}

int ipx_config_parse(struct ipx_config *cfg, const char *name,
		     const char *text, size_t len, char *err, size_t errlen)
{
	struct ipx_config next = *cfg;
	bool set[NPARAMS] = { false };
	unsigned setline[NPARAMS] = { 0 };
	unsigned lineno = 0;
	size_t pos = 0;

	if (!name)
		name = "(config)";
	while (pos < len) {
		char line[512], keybuf[128], valbuf[128];
		const char *end = memchr(text + pos, '\n', len - pos);
		size_t n = end ? (size_t)(end - (text + pos)) : len - pos;
		const char *eq, *why = NULL;
		char *c;
		size_t klen;
		int idx;
		uint32_t value;

		lineno++;
		if (n >= sizeof(line))
			return fail(err, errlen, name, lineno,
				    "line longer than %zu characters",
				    sizeof(line) - 1);
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (strlen(line) != n)
			return fail(err, errlen, name, lineno,
				    "binary data (a NUL byte) in the file");
		for (c = line; *c; c++) {
			if (*c == ';' || *c == '#') {
				*c = '\0';
				break;
			}
			if (*c == '\r' || *c == '\t')
				*c = ' ';
			else if ((unsigned char)*c < 0x20)
				return fail(err, errlen, name, lineno,
					    "control character in the line");
		}
		normalise(line, strlen(line), keybuf, sizeof(keybuf));
		if (!keybuf[0])
			continue;

		/* Split KEY = VALUE, or KEY VALUE with the value last. */
		eq = strchr(line, '=');
		if (eq) {
			klen = (size_t)(eq - line);
			normalise(eq + 1, strlen(eq + 1), valbuf,
				  sizeof(valbuf));
		} else {
			char *sp = strrchr(keybuf, ' ');

			if (!sp) {
				valbuf[0] = '\0';
				klen = strlen(line);
			} else {
				snprintf(valbuf, sizeof(valbuf), "%s", sp + 1);
				*sp = '\0';
				klen = (size_t)-1;
			}
		}
		if (klen != (size_t)-1) {
			char tmp[128];

			normalise(line, klen, tmp, sizeof(tmp));
			memcpy(keybuf, tmp, sizeof(tmp));
		}

		for (size_t r = 0; r < sizeof(refused) / sizeof(refused[0]); r++)
			if (!strcmp(keybuf, refused[r].name))
				return fail(err, errlen, name, lineno, "%s",
					    refused[r].why);
		if (!keybuf[0])
			return fail(err, errlen, name, lineno,
				    "a value with no parameter name");
		idx = ipx_config_find(keybuf);
		if (idx < 0 && !eq && ipx_config_find(line) >= 0)
			return fail(err, errlen, name, lineno,
				    "%s has no value", keybuf);
		if (idx < 0)
			return fail(err, errlen, name, lineno,
				    "unknown parameter '%s' (see 'ipxlab config "
				    "--help' for the list)",
				    keybuf);
		if (set[idx])
			return fail(err, errlen, name, lineno,
				    "%s is already set on line %u",
				    params[idx].name, setline[idx]);
		if (parse_value((size_t)idx, valbuf, &value, &why) < 0) {
			const struct ipx_config_param *p = &params[idx];

			if (p->unit == IPX_CFG_ONOFF || !strcmp(why, "has no value"))
				return fail(err, errlen, name, lineno,
					    "%s %s (got '%s')", p->name, why,
					    valbuf);
			return fail(err, errlen, name, lineno,
				    "%s = %s is %s: it must be %u to %u%s",
				    p->name, valbuf, why, p->min, p->max,
				    ipx_config_unit_name(p->unit));
		}
		*field(&next, (size_t)idx) = value;
		next.origin[idx].kind = IPX_CFG_FILE;
		next.origin[idx].line = lineno;
		set[idx] = true;
		setline[idx] = lineno;
	}

	/* NETBIOS INTERNET changes the defaults of the values not set. */
	for (size_t i = 0; i < NPARAMS; i++) {
		if (next.origin[i].kind == IPX_CFG_FILE ||
		    params[i].internet_def == params[i].def)
			continue;
		*field(&next, i) = next.netbios_internet ? params[i].internet_def
							 : params[i].def;
		next.origin[i].kind = next.netbios_internet ? IPX_CFG_INTERNET
							    : IPX_CFG_DEFAULT;
	}
	snprintf(next.file, sizeof(next.file), "%s", name);
	*cfg = next;
	return IPX_OK;
}

int ipx_config_load(struct ipx_config *cfg, const char *path, char *err,
		    size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *text;
	size_t len;
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return IPX_ECONFIG;
	}
	/* SHELL.CFG files are tiny; refuse anything implausibly large. */
	text = malloc(65536 + 1);
	if (!text) {
		fclose(f);
		return IPX_ENOMEM;
	}
	len = fread(text, 1, 65536 + 1, f);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		rc = IPX_ECONFIG;
	} else if (len > 65536) {
		snprintf(err, errlen, "%s: larger than 64 KiB: not a SHELL.CFG",
			 path);
		rc = IPX_ECONFIG;
	} else {
		rc = ipx_config_parse(cfg, path, text, len, err, errlen);
	}
	free(text);
	fclose(f);
	return rc;
}

void ipx_config_origin_str(const struct ipx_config *cfg, size_t index,
			   char *out, size_t outlen)
{
	if (index >= NPARAMS) {
		snprintf(out, outlen, "?");
		return;
	}
	switch (cfg->origin[index].kind) {
	case IPX_CFG_FILE:
		snprintf(out, outlen, "%s:%u", cfg->file,
			 cfg->origin[index].line);
		break;
	case IPX_CFG_INTERNET:
		snprintf(out, outlen, "default (NETBIOS INTERNET = ON)");
		break;
	default:
		snprintf(out, outlen, "default");
		break;
	}
}

void ipx_config_value_str(const struct ipx_config *cfg, size_t index,
			  char *out, size_t outlen)
{
	uint32_t v = ipx_config_value(cfg, index);

	if (index >= NPARAMS) {
		snprintf(out, outlen, "?");
		return;
	}
	switch (params[index].unit) {
	case IPX_CFG_ONOFF:
		snprintf(out, outlen, "%s", v ? "ON" : "OFF");
		break;
	case IPX_CFG_TICKS:
		snprintf(out, outlen, "%u ticks (%.1f s)", v, v / 18.2);
		break;
	case IPX_CFG_MSEC:
		snprintf(out, outlen, "%u ms", v);
		break;
	default:
		snprintf(out, outlen, "%u", v);
		break;
	}
}
