/*
 * client_ns.c - the client's file calls through the LONG (OS/2) name
 * space, NCP 0x57, when the caller asks for it (opts.long_names) and the
 * server has it on SYS (0x57 0x18 asked at connect; docs/ncp.md): open/create, erase, rename, list, stat, mkdir,
 * rmdir take names of up to 255 bytes with spaces and any case. Paths
 * are the same strings as in the DOS calls ("VOL:DIR\NAME", or relative
 * to the directory handle); they become a handle path: style 0xFF with
 * the volume as first component, or the handle (style 0), then one
 * component per name, ".." as a component of length 0 (mars_nwe, ncpfs).
 * Numbers are little-endian in these calls.
 */
#include <string.h>

#include "client_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

enum { NS_LONG = 4, RIM_ALL = 0x0FFF, INFO_LEN = 77 };
/* Search attributes: hidden and system; 0x8000 files and directories. */
enum { SA_FILES = 0x0006, SA_ALL = 0x8006 };

struct nsb {
	uint8_t b[NCP_CLI_MAX];
	size_t n;
	bool bad;
};

static void b8(struct nsb *q, uint8_t v)
{
	if (q->n < sizeof(q->b))
		q->b[q->n++] = v;
	else
		q->bad = true;
}

static void b16(struct nsb *q, uint16_t v)
{
	b8(q, (uint8_t)v);
	b8(q, (uint8_t)(v >> 8));
}

static void b32(struct nsb *q, uint32_t v)
{
	b16(q, (uint16_t)v);
	b16(q, (uint16_t)(v >> 16));
}

static void bname(struct nsb *q, const char *p, size_t n)
{
	if (n > 255) {
		q->bad = true;
		return;
	}
	b8(q, (uint8_t)n);
	for (size_t i = 0; i < n; i++)
		b8(q, (uint8_t)p[i]);
}

/* The handle path's fixed part and its components, from 'path'. */
static void bpath(struct ncp_client *cl, struct nsb *q, const char *path)
{
	const char *colon = strchr(path, ':'), *p = path;
	size_t cnt_at;
	unsigned cnt = 0;

	b8(q, 0);
	b32(q, colon ? 0 : cl->dh);
	b8(q, colon ? 0xFF : 0);
	cnt_at = q->n;
	b8(q, 0);
	if (colon) {
		bname(q, path, (size_t)(colon - path));
		cnt++;
		p = colon + 1;
	}
	while (*p) {
		size_t n = strcspn(p, "\\/");

		if (n == 2 && !memcmp(p, "..", 2)) {
			bname(q, p, 0);
			cnt++;
		} else if (n && !(n == 1 && p[0] == '.')) {
			bname(q, p, n);
			cnt++;
		}
		p += n;
		if (*p)
			p++;
	}
	if (cnt_at < sizeof(q->b))
		q->b[cnt_at] = (uint8_t)cnt;
}

static int call(struct ncp_client *cl, struct nsb *q, uint8_t *r, size_t cap,
		size_t *rl)
{
	if (q->bad)
		return IPX_EINVAL;
	return ncp_request(cl, 0x57, q->b, q->n, r, cap, rl);
}

int ncp_ns_detect(struct ncp_client *cl)
{
	struct nsb q = { .n = 0 };
	uint8_t r[64];
	size_t rl;

	cl->ns = 0;
	if (!cl->opts.long_names)
		return 0;
	b8(&q, 0x18);
	b16(&q, 0);
	b8(&q, 0);	/* SYS */
	if (call(cl, &q, r, sizeof(r), &rl) || rl < 2)
		return 0;	/* no name spaces: DOS as before */
	for (size_t i = 0; i < ipx_get16le(r) && 2 + i < rl; i++)
		if (r[2 + i] == NS_LONG)
			cl->ns = NS_LONG;
	return 0;
}

bool ncp_long_names(const struct ncp_client *cl)
{
	return cl->ns == NS_LONG;
}

/* An entry out of NetWare's info structure. */
static int parse_info(const uint8_t *p, size_t len, struct ncp_entry *e)
{
	if (len < INFO_LEN || len < INFO_LEN + (size_t)p[76])
		return -1;
	memset(e, 0, sizeof(*e));
	e->attr = p[4];
	e->size = e->attr & NCP_ATTR_DIRECTORY
		  ? 0 : ipx_get32le(p + 10);
	e->time = ipx_get16le(p + 28);
	e->date = ipx_get16le(p + 30);
	memcpy(e->name, p + 77, p[76]);
	e->name[p[76]] = '\0';
	return 0;
}

int ncp_ns_open(struct ncp_client *cl, const char *path,
		enum ncp_open_mode m, struct ncp_fh *fh)
{
	struct nsb q = { .n = 0 };
	uint8_t r[NCP_CLI_MAX], mode = 0x01;
	uint16_t rights = NCP_SHARE_READ;
	size_t rl;
	int rc;

	switch (m) {
	case NCP_OPEN_READ:
		break;
	case NCP_OPEN_WRITE:
		rights = NCP_SHARE_READ | NCP_SHARE_WRITE;
		break;
	case NCP_OPEN_CREATE:
		mode = 0x0A;	/* replace or create */
		rights = NCP_SHARE_READ | NCP_SHARE_WRITE;
		break;
	case NCP_OPEN_CREATE_NEW:
		mode = 0x08;	/* create only */
		rights = NCP_SHARE_READ | NCP_SHARE_WRITE;
		break;
	case NCP_OPEN_CREATE_DENY_WRITE:
		mode = 0x0A;
		rights = NCP_SHARE_READ | NCP_SHARE_WRITE | NCP_SHARE_DENY_WRITE;
		break;
	}
	b8(&q, 0x01);
	b8(&q, NS_LONG);
	b8(&q, mode);
	b16(&q, SA_FILES);
	b32(&q, RIM_ALL);
	b32(&q, 0);		/* create attributes */
	b16(&q, rights);
	bpath(cl, &q, path);
	rc = call(cl, &q, r, sizeof(r), &rl);
	/* Create-only over a name there: NetWare says "no create/delete
	 * privilege" (0x85, mars_nwe); the DOS call says it exists. */
	if (rc == NCP_CC_NO_CREATE_DELETE && m == NCP_OPEN_CREATE_NEW)
		return NCP_CC_NAME_EXISTS;
	if (rc)
		return rc;
	if (rl < 6 + INFO_LEN)
		return NCP_E_BADREPLY;
	/* The 6-byte handle as ncpfs makes it of the 4 bytes returned. */
	memcpy(fh->h + 2, r, 4);
	ipx_put16le(fh->h, (uint16_t)(ipx_get16le(r) + 1));
	fh->size = ipx_get32le(r + 6 + 10);
	return 0;
}

static int delete_one(struct ncp_client *cl, const char *path, uint16_t sa)
{
	struct nsb q = { .n = 0 };

	b8(&q, 0x08);
	b8(&q, NS_LONG);
	b8(&q, 0);
	b16(&q, sa);
	bpath(cl, &q, path);
	return call(cl, &q, NULL, 0, NULL);
}

struct erase_ctx {
	struct ncp_client *cl;
	const char *dir;
	int rc;
	unsigned done;
	char names[64][NCP_LONG_NAME + 1];
	unsigned n;
};

static int collect(const struct ncp_entry *e, void *ctx)
{
	struct erase_ctx *x = ctx;

	if (e->attr & NCP_ATTR_DIRECTORY)
		return 0;
	if (x->n == 64)
		return 1;
	snprintf(x->names[x->n++], sizeof(x->names[0]), "%s", e->name);
	return 0;
}

int ncp_ns_erase(struct ncp_client *cl, const char *path)
{
	char dir[300], full[600];
	const char *name;
	struct erase_ctx x = { .cl = cl };
	int rc;

	if (!strpbrk(ncp_path_name(path), "*?"))
		return delete_one(cl, path, SA_FILES);
	ncp_path_split(path, dir, sizeof(dir), &name);
	/* Listed first, deleted after: a search goes by position. */
	rc = ncp_ns_list(cl, dir, name, collect, &x);
	if (rc)
		return rc;
	if (x.n == 0)
		return NCP_CC_FAILURE;
	for (unsigned i = 0; i < x.n; i++) {
		snprintf(full, sizeof(full), "%s%s", dir, x.names[i]);
		rc = delete_one(cl, full, SA_FILES);
		if (rc)
			return rc;
	}
	return 0;
}

int ncp_ns_rename(struct ncp_client *cl, const char *from, const char *to)
{
	struct nsb a = { .n = 0 }, b = { .n = 0 }, q = { .n = 0 };

	/* The two fixed parts, then the two component lists. */
	bpath(cl, &a, from);
	bpath(cl, &b, to);
	if (a.bad || b.bad)
		return IPX_EINVAL;
	b8(&q, 0x04);
	b8(&q, NS_LONG);
	b8(&q, 1);	/* rename flag */
	b16(&q, SA_ALL);
	for (size_t i = 0; i < 7; i++)
		b8(&q, a.b[i]);
	for (size_t i = 0; i < 7; i++)
		b8(&q, b.b[i]);
	for (size_t i = 7; i < a.n; i++)
		b8(&q, a.b[i]);
	for (size_t i = 7; i < b.n; i++)
		b8(&q, b.b[i]);
	return call(cl, &q, NULL, 0, NULL);
}

int ncp_ns_mkdir(struct ncp_client *cl, const char *path)
{
	struct nsb q = { .n = 0 };
	uint8_t r[NCP_CLI_MAX];
	size_t rl;
	int rc;

	b8(&q, 0x01);
	b8(&q, NS_LONG);
	b8(&q, 0x08);
	b16(&q, SA_ALL);
	b32(&q, 0);
	b32(&q, NCP_ATTR_DIRECTORY);
	b16(&q, 0xFF);	/* inherited rights */
	bpath(cl, &q, path);
	rc = call(cl, &q, r, sizeof(r), &rl);
	/* A name there: NetWare's 0x84 or 0xFF, as the DOS call's 0xFF;
	 * 0x84 for a name not there is the Create right missing. */
	if (rc == NCP_CC_NO_CREATE &&
	    ncp_ns_stat(cl, path, &(struct ncp_entry){ 0 }) == 0)
		return NCP_CC_FAILURE;
	return rc;
}

int ncp_ns_rmdir(struct ncp_client *cl, const char *path)
{
	struct ncp_entry e;
	int rc = ncp_ns_stat(cl, path, &e);

	if (rc)
		return rc;
	if (!(e.attr & NCP_ATTR_DIRECTORY))
		return NCP_CC_BAD_PATH;
	return delete_one(cl, path, SA_ALL);
}

/* A pattern of the LONG name space: wildcards escaped with 0xFF. */
static void bpattern(struct nsb *q, const char *pat)
{
	size_t at = q->n, n = 0;

	b8(q, 0);
	for (const char *p = pat; *p; p++) {
		if (*p == '*' || *p == '?') {
			b8(q, 0xFF);
			n++;
		}
		b8(q, (uint8_t)*p);
		n++;
	}
	if (n > 255)
		q->bad = true;
	else if (at < sizeof(q->b))
		q->b[at] = (uint8_t)n;
}

int ncp_ns_list(struct ncp_client *cl, const char *dir, const char *pattern,
		int (*cb)(const struct ncp_entry *e, void *ctx), void *ctx)
{
	struct nsb q = { .n = 0 };
	uint8_t r[NCP_CLI_MAX], seq[9];
	size_t rl;
	int rc;

	b8(&q, 0x02);
	b8(&q, NS_LONG);
	b8(&q, 0);
	bpath(cl, &q, dir);
	rc = call(cl, &q, r, sizeof(r), &rl);
	/* Not a directory (or not there): 0x9C, as 0x3E answers it. */
	if (rc == NCP_CC_FAILURE)
		return NCP_CC_BAD_PATH;
	if (rc)
		return rc;
	if (rl < 9)
		return NCP_E_BADREPLY;
	memcpy(seq, r, 9);
	for (;;) {
		struct ncp_entry e;

		q.n = 0;
		b8(&q, 0x03);
		b8(&q, NS_LONG);
		b8(&q, 0);	/* data stream */
		b16(&q, SA_ALL);
		b32(&q, RIM_ALL);
		for (size_t i = 0; i < 9; i++)
			b8(&q, seq[i]);
		bpattern(&q, pattern && *pattern ? pattern : "*");
		rc = call(cl, &q, r, sizeof(r), &rl);
		if (rc == NCP_CC_FAILURE)
			return 0;	/* no more */
		if (rc)
			return rc;
		if (rl < 10 || parse_info(r + 10, rl - 10, &e) < 0)
			return NCP_E_BADREPLY;
		memcpy(seq, r, 9);
		e.seq = ipx_get16le(r + 5);
		if (cb(&e, ctx))
			return 0;
	}
}

int ncp_ns_stat(struct ncp_client *cl, const char *path,
		struct ncp_entry *out)
{
	struct nsb q = { .n = 0 };
	uint8_t r[NCP_CLI_MAX];
	size_t rl;
	int rc;

	if (strpbrk(ncp_path_name(path), "*?"))
		return NCP_CC_BAD_NAME;
	b8(&q, 0x06);
	b8(&q, NS_LONG);
	b8(&q, NS_LONG);
	b16(&q, SA_ALL);
	b32(&q, RIM_ALL);
	bpath(cl, &q, path);
	rc = call(cl, &q, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (parse_info(r, rl, out) < 0)
		return NCP_E_BADREPLY;
	return 0;
}

int ncp_ns_set_attributes(struct ncp_client *cl, const char *path,
			  uint8_t attr)
{
	struct nsb q = { .n = 0 };

	/* 0x57 0x07, modify DOS info: the attributes only (mask 0x0002),
	 * then the 38-byte DOS modify information. */
	b8(&q, 0x07);
	b8(&q, NS_LONG);
	b8(&q, 0);
	b16(&q, SA_ALL);
	b32(&q, 0x0002);
	b32(&q, attr);
	for (int i = 0; i < 34; i++)
		b8(&q, 0);
	bpath(cl, &q, path);
	return call(cl, &q, NULL, 0, NULL);
}
