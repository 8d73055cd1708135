/*
 * client_fs.c - the client's file calls on top of ncp_request(): open,
 * read and write in buffer-size chunks (the read reply's odd-offset pad
 * byte skipped), close, commit, size, erase, rename, directories,
 * listing with 0x3E/0x3F, server info and who-am-I, record locks.
 */
#include <string.h>

#include "client_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

/* dh, then a length-prefixed path; the bytes written, 0 if too long. */
static size_t put_path(uint8_t *b, const char *path)
{
	size_t n = strlen(path);

	if (n > 255)
		return 0;
	b[0] = (uint8_t)n;
	memcpy(b + 1, path, n);
	return n + 1;
}

int ncp_parse_entry(const uint8_t *p, size_t len, struct ncp_entry *e)
{
	if (len < 28)
		return -1;
	memset(e, 0, sizeof(*e));
	memcpy(e->name, p, 14);
	e->name[14] = '\0';
	e->attr = p[14];
	if (e->attr & NCP_ATTR_DIRECTORY) {
		e->date = ipx_get16(p + 16);
		e->time = ipx_get16(p + 18);
	} else {
		e->size = ipx_get32(p + 16);
		e->date = ipx_get16(p + 24);
		e->time = ipx_get16(p + 26);
	}
	return 0;
}

int ncp_open(struct ncp_client *cl, const char *path, enum ncp_open_mode m,
	     struct ncp_fh *fh)
{
	uint8_t b[300], r[64];
	size_t n, rl;
	uint8_t fn;
	int rc;

	if (cl->ns)
		return ncp_ns_open(cl, path, m, fh);
	b[0] = cl->dh;
	switch (m) {
	case NCP_OPEN_READ:
	case NCP_OPEN_WRITE:
		fn = 0x4C;
		b[1] = NCP_SATTR_HIDDEN | NCP_SATTR_SYSTEM;
		b[2] = m == NCP_OPEN_WRITE ? NCP_RIGHT_READ | NCP_RIGHT_WRITE
					   : NCP_RIGHT_READ;
		n = 3;
		break;
	case NCP_OPEN_CREATE_DENY_WRITE:
		fn = 0x54;
		b[1] = 0;	/* attributes */
		b[2] = NCP_SHARE_READ | NCP_SHARE_WRITE | NCP_SHARE_DENY_WRITE;
		b[3] = NCP_ACT_REPLACE | NCP_ACT_CREATE;
		n = 4;
		break;
	default:
		fn = m == NCP_OPEN_CREATE ? 0x43 : 0x4D;
		b[1] = 0;	/* attributes */
		n = 2;
	}
	if (!put_path(b + n, path))
		return IPX_EINVAL;
	n += put_path(b + n, path);
	rc = ncp_request(cl, fn, b, n, r, sizeof(r), &rl);
	if (rc == NCP_CC_UNKNOWN_REQUEST && fn == 0x54)
		return ncp_open(cl, path, NCP_OPEN_CREATE, fh);
	if (rc)
		return rc;
	if (rl < 36)
		return NCP_E_BADREPLY;
	memcpy(fh->h, r, NCP_HANDLE_LEN);
	fh->size = ipx_get32(r + 24);
	return 0;
}

/* +0 reserved, +1 handle. */
static size_t put_handle(uint8_t *b, const struct ncp_fh *fh)
{
	b[0] = 0;
	memcpy(b + 1, fh->h, NCP_HANDLE_LEN);
	return 1 + NCP_HANDLE_LEN;
}

int ncp_close(struct ncp_client *cl, const struct ncp_fh *fh)
{
	uint8_t b[8];

	return ncp_request(cl, 0x42, b, put_handle(b, fh), NULL, 0, NULL);
}

int ncp_commit(struct ncp_client *cl, const struct ncp_fh *fh)
{
	uint8_t b[8];

	return ncp_request(cl, 0x3D, b, put_handle(b, fh), NULL, 0, NULL);
}

int ncp_file_size(struct ncp_client *cl, const struct ncp_fh *fh,
		  uint32_t *size)
{
	uint8_t b[8], r[8];
	size_t rl;
	int rc = ncp_request(cl, 0x47, b, put_handle(b, fh), r, sizeof(r), &rl);

	if (rc)
		return rc;
	if (rl < 4)
		return NCP_E_BADREPLY;
	*size = ipx_get32(r);
	return 0;
}

/* A chunk that ends on a buffer-size boundary (ncpfs does the same). */
static size_t chunk(const struct ncp_client *cl, uint32_t off, size_t left)
{
	size_t c = cl->bufsize - off % cl->bufsize;

	return c < left ? c : left;
}

int ncp_read(struct ncp_client *cl, const struct ncp_fh *fh, uint32_t off,
	     void *buf, size_t n, size_t *got)
{
	uint8_t b[16], r[NCP_CLI_MAX];
	size_t done = 0;

	if (cl->burst && n > cl->bufsize)	/* burst.c */
		return ncp_burst_read(cl, fh, off, buf, n, got);
	*got = 0;
	while (done < n) {
		uint32_t at = off + (uint32_t)done;
		size_t want = chunk(cl, at, n - done), rl, pad = at & 1, cnt;
		size_t k = put_handle(b, fh);
		int rc;

		ipx_put32(b + k, at);
		ipx_put16(b + k + 4, (uint16_t)want);
		rc = ncp_request(cl, 0x48, b, k + 6, r, sizeof(r), &rl);
		if (rc)
			return rc;
		if (rl < 2)
			return NCP_E_BADREPLY;
		cnt = ipx_get16(r);
		if (cnt > want || rl < 2 + pad + cnt)
			return NCP_E_BADREPLY;
		memcpy((uint8_t *)buf + done, r + 2 + pad, cnt);
		done += cnt;
		*got = done;
		if (cnt < want)
			break;
	}
	return 0;
}

int ncp_write(struct ncp_client *cl, const struct ncp_fh *fh, uint32_t off,
	      const void *buf, size_t n)
{
	uint8_t b[NCP_CLI_MAX];
	size_t done = 0;

	if (cl->burst && n > cl->bufsize)	/* burst.c */
		return ncp_burst_write(cl, fh, off, buf, n);
	do {
		uint32_t at = off + (uint32_t)done;
		size_t len = n ? chunk(cl, at, n - done) : 0;
		size_t k = put_handle(b, fh);
		int rc;

		ipx_put32(b + k, at);
		ipx_put16(b + k + 4, (uint16_t)len);
		if (len)
			memcpy(b + k + 6, (const uint8_t *)buf + done, len);
		rc = ncp_request(cl, 0x49, b, k + 6 + len, NULL, 0, NULL);
		if (rc)
			return rc;
		done += len;
	} while (done < n);
	return 0;
}

int ncp_erase(struct ncp_client *cl, const char *path)
{
	uint8_t b[300];
	size_t n;

	if (cl->ns)
		return ncp_ns_erase(cl, path);
	b[0] = cl->dh;
	b[1] = NCP_SATTR_HIDDEN | NCP_SATTR_SYSTEM;
	if (!(n = put_path(b + 2, path)))
		return IPX_EINVAL;
	return ncp_request(cl, 0x44, b, 2 + n, NULL, 0, NULL);
}

int ncp_rename(struct ncp_client *cl, const char *from, const char *to)
{
	uint8_t b[600];
	size_t n, m;

	if (cl->ns)
		return ncp_ns_rename(cl, from, to);
	b[0] = cl->dh;
	b[1] = NCP_SATTR_HIDDEN | NCP_SATTR_SYSTEM;
	if (!(n = put_path(b + 2, from)))
		return IPX_EINVAL;
	b[2 + n] = cl->dh;
	if (!(m = put_path(b + 3 + n, to)))
		return IPX_EINVAL;
	return ncp_request(cl, 0x45, b, 3 + n + m, NULL, 0, NULL);
}

static int dir_call(struct ncp_client *cl, uint8_t sub, uint8_t mid,
		    const char *path)
{
	uint8_t b[300];
	size_t n;

	b[0] = cl->dh;
	b[1] = mid;
	if (!(n = put_path(b + 2, path)))
		return IPX_EINVAL;
	return ncp_request_sub(cl, 0x16, sub, b, 2 + n, NULL, 0, NULL);
}

int ncp_mkdir(struct ncp_client *cl, const char *path)
{
	if (cl->ns)
		return ncp_ns_mkdir(cl, path);
	return dir_call(cl, 0x0A, NCP_RIGHTS_ALL, path);
}

int ncp_rmdir(struct ncp_client *cl, const char *path)
{
	if (cl->ns)
		return ncp_ns_rmdir(cl, path);
	return dir_call(cl, 0x0B, 0, path);
}

int ncp_set_stamp(struct ncp_client *cl, const struct ncp_fh *fh,
		  uint16_t date, uint16_t time)
{
	uint8_t b[16];
	size_t k = put_handle(b, fh);

	ipx_put16(b + k, time);
	ipx_put16(b + k + 2, date);
	return ncp_request(cl, 0x4B, b, k + 4, NULL, 0, NULL);
}

int ncp_rename_dir(struct ncp_client *cl, const char *path, const char *name)
{
	uint8_t b[600];
	size_t n, m;

	if (cl->ns) {	/* the same parent, through the LONG name space */
		char to[600];
		size_t dl = (size_t)(ncp_path_name(path) - path);

		if (dl + strlen(name) >= sizeof(to))
			return IPX_EINVAL;
		memcpy(to, path, dl);
		strcpy(to + dl, name);
		return ncp_ns_rename(cl, path, to);
	}
	b[0] = cl->dh;
	if (!(n = put_path(b + 1, path)) || !(m = put_path(b + 1 + n, name)))
		return IPX_EINVAL;
	return ncp_request_sub(cl, 0x16, 0x0F, b, 1 + n + m, NULL, 0, NULL);
}

int ncp_set_attributes(struct ncp_client *cl, const char *path, uint8_t attr)
{
	uint8_t b[300];
	size_t n;

	if (cl->ns)
		return ncp_ns_set_attributes(cl, path, attr);
	b[0] = attr;
	b[1] = cl->dh;
	b[2] = NCP_SATTR_HIDDEN | NCP_SATTR_SYSTEM;
	if (!(n = put_path(b + 3, path)))
		return IPX_EINVAL;
	return ncp_request(cl, 0x46, b, 3 + n, NULL, 0, NULL);
}

/*
 * One 0x3E/0x3F pass with search attributes 'sattr'; entries that are
 * directories when 'want' is 1, files when 0, anything when -1 go to
 * 'cb'. *files counts the files the server returned. 1 when 'cb' stopped
 * the listing, 0 at the end, else an error.
 */
static int list_pass(struct ncp_client *cl, const char *dir,
		     const char *pattern, uint8_t sattr, int want,
		     unsigned *files,
		     int (*cb)(const struct ncp_entry *e, void *ctx),
		     void *ctx)
{
	uint8_t b[300], r[64];
	size_t n, rl;
	uint8_t vol;
	uint16_t id, seq;
	int rc;

	b[0] = cl->dh;
	if (!(n = put_path(b + 1, dir)))
		return IPX_EINVAL;
	rc = ncp_request(cl, 0x3E, b, 1 + n, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 6)
		return NCP_E_BADREPLY;
	vol = r[0];
	id = ipx_get16(r + 1);
	seq = ipx_get16(r + 3);
	for (;;) {
		struct ncp_entry e;
		int isdir;

		b[0] = vol;
		ipx_put16(b + 1, id);
		ipx_put16(b + 3, seq);
		b[5] = sattr;
		if (!(n = put_path(b + 6, pattern ? pattern : "*.*")))
			return IPX_EINVAL;
		rc = ncp_request(cl, 0x3F, b, 6 + n, r, sizeof(r), &rl);
		if (rc == NCP_CC_FAILURE)
			return 0;	/* no more */
		if (rc)
			return rc;
		if (rl < 4 || ncp_parse_entry(r + 4, rl - 4, &e) < 0)
			return NCP_E_BADREPLY;
		seq = ipx_get16(r);
		e.seq = seq;
		isdir = !!(e.attr & NCP_ATTR_DIRECTORY);
		*files += !isdir;
		if (want >= 0 && isdir != want)
			continue;
		if (cb(&e, ctx))
			return 1;
	}
}

/*
 * NetWare servers (mars_nwe; Wireshark names the bit "Subdirectories
 * Only", and ncpfs searches twice for it) read search attribute 0x10 as
 * "directories only", ipxlab's server as "directories too". So the first
 * pass asks with 0x10; if it brought no file, a second pass without it
 * gets the files. Each name is listed once from either kind of server.
 * Which kind this server is shows once a pass brings a file: with 0x10,
 * "directories too", and no second pass is made on this connection again
 * (a name not there costs 0x3E + 0x3F, not twice that); a file found only
 * by the second pass means "directories only", and both passes stay.
 */
int ncp_list(struct ncp_client *cl, const char *dir, const char *pattern,
	     int (*cb)(const struct ncp_entry *e, void *ctx), void *ctx)
{
	const uint8_t hs = NCP_SATTR_HIDDEN | NCP_SATTR_SYSTEM;
	unsigned files = 0;
	int rc;

	if (cl->ns)
		return ncp_ns_list(cl, dir, pattern, cb, ctx);
	rc = list_pass(cl, dir, pattern, hs | NCP_SATTR_DIR, -1, &files, cb,
		       ctx);

	if (files)
		cl->sattr_dir = 1;
	if (rc == 0 && files == 0 && cl->sattr_dir <= 0) {
		rc = list_pass(cl, dir, pattern, hs, 0, &files, cb, ctx);
		if (files)
			cl->sattr_dir = -1;
	}
	return rc == 1 ? 0 : rc;
}

struct stat_ctx {
	struct ncp_entry *out;
	bool found;
};

static int take_first(const struct ncp_entry *e, void *ctx)
{
	struct stat_ctx *s = ctx;

	*s->out = *e;
	s->found = true;
	return 1;
}

int ncp_stat(struct ncp_client *cl, const char *path, struct ncp_entry *out)
{
	char dir[300];
	const char *name = path, *p;
	struct stat_ctx s = { out, false };
	int rc;

	for (p = path; *p; p++)
		if (*p == '\\' || *p == '/' || *p == ':')
			name = p + 1;
	if (strlen(path) >= sizeof(dir))
		return IPX_EINVAL;
	memcpy(dir, path, (size_t)(name - path));
	dir[name - path] = '\0';
	if (!*name) {	/* a volume or a directory given with a slash */
		memset(out, 0, sizeof(*out));
		snprintf(out->name, sizeof(out->name), "%s", dir);
		out->attr = NCP_ATTR_DIRECTORY;
		return 0;
	}
	if (strpbrk(name, "*?"))
		return NCP_CC_BAD_NAME;
	if (cl->ns)
		return ncp_ns_stat(cl, path, out);
	rc = ncp_list(cl, dir, name, take_first, &s);
	if (rc)
		return rc;
	return s.found ? 0 : NCP_CC_FAILURE;
}

int ncp_get_server_info(struct ncp_client *cl, struct ncp_server_info *o)
{
	uint8_t r[160];
	size_t rl;
	int rc = ncp_request_sub(cl, 0x17, 0x11, NULL, 0, r, sizeof(r), &rl);

	if (rc)
		return rc;
	if (rl < 61)
		return NCP_E_BADREPLY;
	memcpy(o->name, r, 48);
	o->name[48] = '\0';
	o->major = r[48];
	o->minor = r[49];
	o->max_conns = ipx_get16(r + 50);
	o->conns = ipx_get16(r + 52);
	o->volumes = ipx_get16(r + 54);
	o->peak = ipx_get16(r + 59);
	return 0;
}

int ncp_whoami(struct ncp_client *cl, char *user, size_t cap,
	       uint8_t *station)
{
	uint8_t r[80], st;
	size_t rl;
	int rc = ncp_request(cl, 0x13, NULL, 0, r, sizeof(r), &rl);

	if (rc)
		return rc;
	if (rl < 1)
		return NCP_E_BADREPLY;
	st = r[0];
	if (station)
		*station = st;
	rc = ncp_request_sub(cl, 0x17, 0x16, &st, 1, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 54)
		return NCP_E_BADREPLY;
	snprintf(user, cap, "%.48s", (const char *)r + 6);
	return 0;
}

int ncp_lock_record(struct ncp_client *cl, const struct ncp_fh *fh,
		    uint8_t flag, uint32_t start, uint32_t len,
		    uint16_t timeout_ticks)
{
	uint8_t b[20];
	size_t k = put_handle(b, fh);

	b[0] = flag;
	ipx_put32(b + k, start);
	ipx_put32(b + k + 4, len);
	ipx_put16(b + k + 8, timeout_ticks);
	return ncp_request(cl, 0x1A, b, k + 10, NULL, 0, NULL);
}

int ncp_clear_record(struct ncp_client *cl, const struct ncp_fh *fh,
		     uint32_t start, uint32_t len)
{
	uint8_t b[20];
	size_t k = put_handle(b, fh);

	ipx_put32(b + k, start);
	ipx_put32(b + k + 4, len);
	return ncp_request(cl, 0x1E, b, k + 8, NULL, 0, NULL);
}

/* One name: 1-8 characters, optionally a dot and 0-3 more. */
static bool name_83(const char *p, size_t n)
{
	const char *dot = memchr(p, '.', n);

	if ((n == 1 && p[0] == '.') || (n == 2 && !memcmp(p, "..", 2)))
		return true;
	if (!dot)
		return n >= 1 && n <= 8;
	if (memchr(dot + 1, '.', n - (size_t)(dot + 1 - p)))
		return false;
	return dot > p && dot - p <= 8 && n - (size_t)(dot + 1 - p) <= 3;
}

int ncp_check_path(const char *path)
{
	const char *p = strchr(path, ':');

	p = p ? p + 1 : path;
	while (*p) {
		size_t n = strcspn(p, "\\/");

		if (n && !name_83(p, n))
			return NCP_E_NOT83;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

int ncp_check_path_on(const struct ncp_client *cl, const char *path)
{
	const char *p = strchr(path, ':');

	if (!cl->ns)
		return ncp_check_path(path);
	p = p ? p + 1 : path;
	while (*p) {
		size_t n = strcspn(p, "\\/");

		if (n > NCP_LONG_NAME)
			return NCP_E_NOT83;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

const char *ncp_path_name(const char *path)
{
	const char *b = path;

	for (; *path; path++)
		if (*path == '\\' || *path == '/' || *path == ':')
			b = path + 1;
	return b;
}

void ncp_path_split(const char *path, char *dir, size_t cap,
		    const char **name)
{
	size_t n;

	*name = ncp_path_name(path);
	n = (size_t)(*name - path);
	if (n >= cap)
		n = cap - 1;
	memcpy(dir, path, n);
	dir[n] = '\0';
}
