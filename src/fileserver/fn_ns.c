/*
 * fn_ns.c - NCP 0x57, the name-space calls (NetWare 3.x and later): the
 * DOS (0) and LONG (OS/2, 4) name spaces. Handle paths, directory bases,
 * NetWare's info structure, and the small calls: initialize search
 * (0x02), obtain info (0x06), allocate short directory handle (0x0C),
 * generate directory base (0x16), name spaces loaded (0x18), the full
 * path string (0x1C), effective rights (0x1D). fn_ns_ops.c has the others.
 *
 * Layouts (mars_nwe namspace.c, ncpfs libncp, Wireshark ncp2222.py):
 * every number is little-endian here, unlike the older calls. A handle
 * path is volume (1), base (4), style (1: 0 short directory handle in
 * base's low byte, 1 directory base, 0xFF none: the first component is
 * the volume), component count (1), then length-prefixed components; a
 * component of length 0 means "..". Every component goes through the same
 * rules as a DOS path (names.c): walked from the volume root, one
 * directory at a time, no symlinks, nothing above the root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ns_int.h"

#define NS_BASES 1024	/* directory bases remembered per server */

struct ns_base {
	bool used;
	uint8_t vol;
	uint32_t base;
	struct ncp_path path;	/* the entry's full DOS path */
};

struct ncp_ns_bases {
	struct ns_base v[NS_BASES];
	unsigned next;
};

void ns_put16(struct ncp_wr *w, uint16_t v)
{
	uint8_t b[2];

	ipx_put16le(b, v);
	ncp_wrn(w, b, 2);
}

void ns_put32(struct ncp_wr *w, uint32_t v)
{
	ns_put16(w, (uint16_t)v);
	ns_put16(w, (uint16_t)(v >> 16));
}

uint16_t ns_get16(struct ncp_rd *r)
{
	const uint8_t *p = ncp_rdn(r, 2);

	return p ? ipx_get16le(p) : 0;
}

uint32_t ns_get32(struct ncp_rd *r)
{
	uint32_t lo = ns_get16(r);

	return lo | (uint32_t)ns_get16(r) << 16;
}

void ncp_ns_free(struct ncp_server *srv)
{
	free(srv->ns_bases);
	srv->ns_bases = NULL;
}

bool ns_ok(struct ncp_call *c, uint8_t ns)
{
	if (ns == NS_DOS || ns == NS_LONG)
		return true;
	c->cc = ncp_refuse(c, NCP_SRV_REF_NAME_SPACE, NCP_CC_BAD_NAME_SPACE);
	return false;
}

void ns_rights_dir(const struct ns_ent *e, struct ncp_path *out)
{
	if (S_ISDIR(e->st.st_mode))
		ns_full_path(e, out);
	else
		*out = e->dir;
}

uint8_t ns_rights(struct ncp_call *c, const struct ns_ent *e)
{
	struct ncp_path p;

	ns_rights_dir(e, &p);
	return ncp_rights_byte(c, &p);
}

bool ns_rd_hpath(struct ncp_call *c, struct ns_hpath *h)
{
	h->vol = ncp_rd8(&c->rd);
	h->base = ns_get32(&c->rd);
	h->style = ncp_rd8(&c->rd);
	h->ncomp = ncp_rd8(&c->rd);
	if (c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	if (h->ncomp > NS_MAX_COMP) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_OVERLONG, NCP_CC_BAD_PATH);
		return false;
	}
	return true;
}

bool ns_rd_comps(struct ncp_call *c, const struct ns_hpath *h,
		 struct ns_comp *comp)
{
	for (unsigned i = 0; i < h->ncomp; i++) {
		comp[i].len = ncp_rd8(&c->rd);
		comp[i].p = ncp_rdn(&c->rd, comp[i].len);
	}
	if (c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	return true;
}

void ns_full_path(const struct ns_ent *e, struct ncp_path *out)
{
	*out = e->dir;
	if (!e->root && out->depth < NCP_MAX_DEPTH)
		memcpy(out->comp[out->depth++], e->dos, NCP_NAME_LEN + 1);
}

/* The entry at full path p (depth 0: the root): a completion code. */
static uint8_t stat_path(struct ncp_call *c, const struct ncp_path *p,
			 struct ns_ent *e)
{
	uint8_t cc;
	int fd;

	memset(e, 0, sizeof(*e));
	e->dir = *p;
	e->exists = true;
	if (p->depth == 0) {
		e->root = true;
		if (fstat(c->srv->vols[p->vol].fd, &e->st) < 0)
			return NCP_CC_DIR_IO;
		return NCP_CC_OK;
	}
	e->dir.depth--;
	memcpy(e->dos, p->comp[p->depth - 1], NCP_NAME_LEN + 1);
	fd = ncp_path_open_dir(c, &e->dir, &cc);
	if (fd < 0)
		return cc;
	if (ncp_lookup(c, fd, e->dos, e->host, sizeof(e->host), &e->st))
		cc = NCP_CC_BAD_PATH;
	close(fd);
	return cc;
}

uint32_t ns_base_of(struct ncp_call *c, const struct ns_ent *e)
{
	struct ncp_ns_bases *b = c->srv->ns_bases;
	uint32_t base = (uint32_t)e->st.st_ino;
	struct ncp_path p;
	unsigned slot;

	if (!b && !(b = c->srv->ns_bases = calloc(1, sizeof(*b))))
		return base;
	ns_full_path(e, &p);
	for (slot = 0; slot < NS_BASES; slot++)
		if (b->v[slot].used && b->v[slot].vol == p.vol &&
		    b->v[slot].base == base)
			break;
	if (slot == NS_BASES) {
		slot = b->next;
		b->next = (b->next + 1) % NS_BASES;
	}
	b->v[slot].used = true;
	b->v[slot].vol = (uint8_t)p.vol;
	b->v[slot].base = base;
	b->v[slot].path = p;
	return base;
}

uint8_t ns_base_find(struct ncp_call *c, uint8_t vol, uint32_t base,
		     struct ns_ent *e)
{
	struct ncp_ns_bases *b = c->srv->ns_bases;
	struct ncp_path root = { .vol = vol };

	if (vol >= c->srv->nvols)
		return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME, NCP_CC_NO_VOLUME);
	/* Base 0: the volume's root (as mars_nwe). */
	if (base == 0)
		return stat_path(c, &root, e);
	for (unsigned i = 0; b && i < NS_BASES; i++) {
		if (!b->v[i].used || b->v[i].vol != vol || b->v[i].base != base)
			continue;
		if (stat_path(c, &b->v[i].path, e) == NCP_CC_OK &&
		    (uint32_t)e->st.st_ino == base)
			return NCP_CC_OK;
		break;	/* renamed or removed since */
	}
	if (stat_path(c, &root, e) == NCP_CC_OK &&
	    (uint32_t)e->st.st_ino == base)
		return NCP_CC_OK;
	return ncp_refuse(c, NCP_SRV_REF_BAD_DIR_BASE, NCP_CC_BAD_DIR_HANDLE);
}

/* Where a handle path starts; *have false for style 0xFF (no volume yet). */
static uint8_t start_at(struct ncp_call *c, const struct ns_hpath *h,
			struct ncp_path *cur, bool *have)
{
	struct ns_ent e;
	uint8_t cc, dh = (uint8_t)h->base;

	*have = true;
	memset(cur, 0, sizeof(*cur));
	switch (h->style) {
	case 0:
		if (dh == 0 || dh > NCP_DIR_HANDLES ||
		    !c->conn->dirh[dh - 1].used)
			return ncp_refuse(c, NCP_SRV_REF_BAD_DIR_HANDLE,
					  NCP_CC_BAD_DIR_HANDLE);
		*cur = c->conn->dirh[dh - 1].path;
		return NCP_CC_OK;
	case 1:
		cc = ns_base_find(c, h->vol, h->base, &e);
		if (cc == NCP_CC_OK)
			ns_full_path(&e, cur);
		return cc;
	case 0xFF:
		*have = false;
		return NCP_CC_OK;
	default:
		return ncp_refuse(c, NCP_SRV_REF_BAD_DIR_BASE,
				  NCP_CC_BAD_PATH);
	}
}

static int find_volume(const struct ncp_server *srv, const uint8_t *n,
		       size_t len)
{
	for (size_t i = 0; i < srv->nvols; i++)
		if (strlen(srv->vols[i].name) == len &&
		    !strncasecmp(srv->vols[i].name, (const char *)n, len))
			return (int)i;
	return -1;
}

/* One name in directory 'cur' (a DOS path): into e (exists or not). */
static uint8_t step(struct ncp_call *c, uint8_t ns, const struct ncp_path *cur,
		    const uint8_t *n, size_t len, bool last, struct ns_ent *e)
{
	char name[NCP_LONG_MAX + 1];
	uint8_t cc;
	int fd, r;

	memset(e, 0, sizeof(*e));
	e->dir = *cur;
	/* A name the name space cannot have: 0x9C "invalid path", the code
	 * NetWare gives for it in every 0x57 call (Wireshark's tables), for
	 * the last name too (the older calls say 0x9E there). */
	if (len > NCP_LONG_MAX || memchr(n, '\0', len))
		return ncp_refuse(c, NCP_SRV_REF_BAD_BYTES, NCP_CC_BAD_PATH);
	memcpy(name, n, len);
	name[len] = '\0';
	memcpy(e->asked, name, len + 1);
	if (ns == NS_DOS) {
		int ref = ncp_name_check(name, len, false, e->dos);

		if (ref) {
			enum ncp_srv_refusal why =
			    ncp_long_visible(name) ? NCP_SRV_REF_NAME_SPACE
						   : (enum ncp_srv_refusal)(ref - 1);
			return ncp_refuse(c, why, NCP_CC_BAD_PATH);
		}
	} else if (!ncp_long_visible(name)) {
		return ncp_refuse(c, NCP_SRV_REF_BAD_BYTES, NCP_CC_BAD_PATH);
	}
	fd = ncp_path_open_dir(c, cur, &cc);
	if (fd < 0)
		return cc;
	if (ns == NS_DOS) {
		r = ncp_lookup(c, fd, e->dos, e->host, sizeof(e->host), &e->st);
	} else {
		struct ncp_dirent de;

		r = ncp_lookup_long(c, fd, name, &de);
		if (r == 0) {
			memcpy(e->dos, de.name, sizeof(e->dos));
			memcpy(e->host, de.host, sizeof(e->host));
			e->st = de.st;
			r = ncp_lookup_check(c, &e->st);
		}
	}
	close(fd);
	if (r < 0)
		return NCP_CC_BAD_PATH;
	e->exists = r == 0;
	if (!e->exists) {
		snprintf(e->host, sizeof(e->host), "%s", name);
		if (!last)
			return NCP_CC_BAD_PATH;
	}
	return NCP_CC_OK;
}

/* The pieces of component i: split at '\' and '/' (and, in the first
 * component of a style-0xFF path, after the volume's ':'). */
struct piece {
	const uint8_t *p;
	size_t len;
	bool volume;
};

static size_t split(const struct ns_hpath *h, const struct ns_comp *comp,
		    struct piece *out, size_t cap)
{
	size_t n = 0;

	for (unsigned i = 0; i < h->ncomp && n < cap; i++) {
		const uint8_t *p = comp[i].p;
		size_t len = comp[i].len, j = 0;

		if (len == 0) {		/* ".." */
			out[n++] = (struct piece){ p, 0, false };
			continue;
		}
		if (i == 0 && h->style == 0xFF) {
			const uint8_t *colon = memchr(p, ':', len);
			size_t vl = colon ? (size_t)(colon - p) : len;

			out[n++] = (struct piece){ p, vl, true };
			j = colon ? vl + 1 : len;
		}
		while (j < len && n < cap) {
			size_t k = j;

			while (k < len && p[k] != '\\' && p[k] != '/')
				k++;
			if (k > j)
				out[n++] = (struct piece){ p + j, k - j, false };
			j = k + 1;
		}
	}
	return n;
}

uint8_t ns_resolve(struct ncp_call *c, uint8_t ns, const struct ns_hpath *h,
		   const struct ns_comp *comp, struct ns_ent *e)
{
	struct piece pc[NS_MAX_COMP * 4];
	struct ncp_path cur;
	char asked[NCP_LONG_MAX + 1] = "";	/* the last name, as asked */
	bool have;
	size_t n = split(h, comp, pc, sizeof(pc) / sizeof(pc[0]));
	uint8_t cc = start_at(c, h, &cur, &have);

	if (cc)
		return cc;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = pc[i].p;
		size_t len = pc[i].len;

		if (pc[i].volume || !have) {
			int v = find_volume(c->srv, p, len);

			if (!pc[i].volume || v < 0)
				return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME,
						  NCP_CC_NO_VOLUME);
			memset(&cur, 0, sizeof(cur));
			cur.vol = v;
			have = true;
			continue;
		}
		asked[0] = '\0';
		if (len == 1 && p[0] == '.')
			continue;
		if (len == 0 || (len == 2 && p[0] == '.' && p[1] == '.')) {
			if (cur.depth == 0)
				return ncp_refuse(c, NCP_SRV_REF_ABOVE_ROOT,
						  NCP_CC_BAD_PATH);
			cur.depth--;
			continue;
		}
		if (memchr(p, ':', len))
			return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME,
					  NCP_CC_BAD_PATH);
		if (cur.depth == NCP_MAX_DEPTH)
			return ncp_refuse(c, NCP_SRV_REF_OVERLONG,
					  NCP_CC_BAD_PATH);
		cc = step(c, ns, &cur, p, len, i + 1 == n, e);
		if (cc)
			return cc;
		memcpy(asked, e->asked, sizeof(asked));
		if (!e->exists)
			goto check;
		memcpy(cur.comp[cur.depth++], e->dos, NCP_NAME_LEN + 1);
	}
	if (!have)
		return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME, NCP_CC_BAD_PATH);
	cc = stat_path(c, &cur, e);
	memcpy(e->asked, asked, sizeof(asked));
	if (cc)
		return cc;
check:
	if (!c->conn->logged_in &&
	    !ncp_login_may_see(&e->dir, e->root ? NULL
					: e->exists ? e->dos : "", false))
		return ncp_refuse(c, NCP_SRV_REF_LOGIN_ONLY, NCP_CC_BAD_PATH);
	return NCP_CC_OK;
}

bool ns_rd_resolve(struct ncp_call *c, uint8_t ns, struct ns_ent *e)
{
	struct ns_hpath h;
	struct ns_comp comp[NS_MAX_COMP];

	if (!ns_rd_hpath(c, &h) || !ns_rd_comps(c, &h, comp))
		return false;
	c->cc = ns_resolve(c, ns, &h, comp, e);
	return c->cc == NCP_CC_OK;
}

int ns_open_parent(struct ncp_call *c, const struct ns_ent *e)
{
	return ncp_path_open_dir(c, &e->dir, &c->cc);
}

bool ns_new_name(struct ncp_call *c, uint8_t ns, const char *asked,
		 char *out)
{
	if (ns == NS_LONG) {
		if (!ncp_long_visible(asked)) {
			c->cc = ncp_refuse(c, NCP_SRV_REF_BAD_BYTES,
					   NCP_CC_BAD_NAME);
			return false;
		}
		snprintf(out, NCP_LONG_MAX + 1, "%s", asked);
		return true;
	}
	if (ncp_name_check(asked, strlen(asked), false, out)) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_NAME_SPACE, NCP_CC_BAD_NAME);
		return false;
	}
	return true;
}

static void put_stamp(struct ncp_wr *w, bool on, time_t t, bool with_id)
{
	ns_put16(w, on ? ncp_dos_time(t) : 0);
	ns_put16(w, on ? ncp_dos_date(t) : 0);
	if (with_id)
		ncp_wr32(w, 0);	/* creator / modifier: big-endian (mars) */
}

void ns_put_info(struct ncp_call *c, const struct ns_ent *e, uint32_t rim,
		 uint8_t ns)
{
	const struct stat *st = &e->st;
	uint32_t size = S_ISDIR(st->st_mode) ? 0 : (uint32_t)st->st_size;
	uint8_t attr = ncp_attr_of(st);
	uint32_t base = ns_base_of(c, e);
	const char *name = e->root ? c->srv->vols[e->dir.vol].name
			   : ns == NS_LONG ? e->host : e->dos;

	ns_put32(&c->wr, rim & NS_RIM_SPACE ? size : 0);
	ns_put32(&c->wr, rim & NS_RIM_ATTR ? attr : 0);
	ns_put16(&c->wr, rim & NS_RIM_ATTR ? attr : 0);	/* flags */
	ns_put32(&c->wr, rim & NS_RIM_SIZE ? size : 0);
	ns_put32(&c->wr, rim & NS_RIM_TOTAL_SIZE ? size : 0);
	ns_put16(&c->wr, 0);	/* number of other streams */
	put_stamp(&c->wr, rim & NS_RIM_CREATE, st->st_mtime, true);
	put_stamp(&c->wr, rim & NS_RIM_MODIFY, st->st_mtime, true);
	ns_put16(&c->wr, rim & NS_RIM_MODIFY ? ncp_dos_date(st->st_atime) : 0);
	put_stamp(&c->wr, false, 0, true);	/* archived: never */
	ns_put16(&c->wr, rim & NS_RIM_RIGHTS ? ns_rights(c, e) : 0);
	ns_put32(&c->wr, rim & NS_RIM_DIR ? base : 0);	/* this name space */
	ns_put32(&c->wr, rim & NS_RIM_DIR ? base : 0);	/* DOS */
	ns_put32(&c->wr, rim & NS_RIM_DIR ? (uint32_t)e->dir.vol : 0);
	ncp_wrn(&c->wr, (const uint8_t[12]){ 0 }, 12);	/* extended attrs */
	/* The name space the name was made in: a name that is not 8.3 came
	 * from the LONG one. */
	ns_put32(&c->wr, rim & NS_RIM_NS_INFO && !e->root &&
			 !ncp_name_visible(e->host) ? NS_LONG : NS_DOS);
	if (rim & NS_RIM_NAME)
		ncp_wrstr(&c->wr, name);
}

/* 0x02: +2 reserved, handle path -> volume, base LE4, sequence LE4. */
static void init_search(struct ncp_call *c, uint8_t ns)
{
	struct ns_ent e;

	ncp_rd8(&c->rd);
	if (!ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists || !S_ISDIR(e.st.st_mode)) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	ncp_wr8(&c->wr, (uint8_t)e.dir.vol);
	ns_put32(&c->wr, ns_base_of(c, &e));
	ns_put32(&c->wr, 0xFFFFFFFF);
}

/* 0x06 (and 0x1D with the rights first): destination name space, search
 * attributes LE2, return-info mask LE4, handle path -> info. */
static void obtain_info(struct ncp_call *c, uint8_t ns, bool rights)
{
	uint8_t dns = ncp_rd8(&c->rd);
	uint32_t rim;
	struct ns_ent e;

	ns_get16(&c->rd);
	rim = ns_get32(&c->rd);
	if (!ns_ok(c, dns) || !ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	/* A file's information is what a listing shows: File Scan in its
	 * directory (as the DOS calls' 0x40); a directory's own needs none. */
	if (!S_ISDIR(e.st.st_mode) &&
	    (c->cc = ncp_rights_check(c, &e.dir, NCP_OP_SCAN)))
		return;
	if (rights)
		ns_put16(&c->wr, ns_rights(c, &e));
	ns_put_info(c, &e, rim, dns);
}

/* 0x0C: +2 reserved, mode LE2 (0 permanent, 1 temporary, 2 special),
 * handle path -> handle, volume, 4 reserved. */
static void alloc_short(struct ncp_call *c, uint8_t ns)
{
	uint16_t mode;
	struct ns_ent e;
	struct ncp_path p;
	int i;

	ncp_rd8(&c->rd);
	mode = ns_get16(&c->rd);
	if (!ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists || !S_ISDIR(e.st.st_mode)) {
		c->cc = NCP_CC_BAD_PATH;
		return;
	}
	for (i = 0; i < NCP_DIR_HANDLES; i++)
		if (!c->conn->dirh[i].used)
			break;
	if (i == NCP_DIR_HANDLES) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_DIR_HANDLES,
				   NCP_CC_NO_DIR_HANDLES);
		return;
	}
	ns_full_path(&e, &p);
	c->conn->dirh[i].used = true;
	c->conn->dirh[i].temp = mode != 0;
	c->conn->dirh[i].task = c->hdr.task;
	c->conn->dirh[i].path = p;
	ncp_wr8(&c->wr, (uint8_t)(i + 1));
	ncp_wr8(&c->wr, (uint8_t)p.vol);
	ns_put32(&c->wr, 0);
}

/* 0x16: destination name space, 2 reserved, handle path -> base in the
 * name space, DOS base, volume. */
static void gen_base(struct ncp_call *c, uint8_t ns)
{
	struct ns_ent e;
	uint32_t base;

	ncp_rdn(&c->rd, 3);
	if (!ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	base = ns_base_of(c, &e);
	ns_put32(&c->wr, base);
	ns_put32(&c->wr, base);
	ncp_wr8(&c->wr, (uint8_t)e.dir.vol);
}

/* The name of component i of full path p in name space ns. */
static bool comp_name(struct ncp_call *c, const struct ncp_path *p, int i,
		      uint8_t ns, char *out)
{
	struct ncp_path d = *p;
	struct stat st;
	uint8_t cc;
	int fd, r;

	if (ns == NS_DOS) {
		snprintf(out, NCP_LONG_MAX + 1, "%s", p->comp[i]);
		return true;
	}
	d.depth = i;
	if ((fd = ncp_path_open_dir(c, &d, &cc)) < 0)
		return false;
	r = ncp_lookup(c, fd, p->comp[i], out, NCP_LONG_MAX + 1, &st);
	close(fd);
	return r == 0;
}

/* 0x1C: destination name space, flags LE2, two cookies LE4, handle path
 * -> flags, the cookies (the second 0xFFFFFFFF: complete), the size of
 * the components LE2, their count LE2, the names from the entry up to
 * the volume (ncpfs reads them so; mars_nwe). */
static void full_path(struct ncp_call *c, uint8_t ns)
{
	uint8_t dns = ncp_rd8(&c->rd);
	struct ns_ent e;
	struct ncp_path p;
	size_t at;
	uint16_t size = 0;

	ns_get16(&c->rd);	/* flags */
	ns_get32(&c->rd);
	ns_get32(&c->rd);
	if (!ns_ok(c, dns) || !ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	ns_full_path(&e, &p);
	ns_put16(&c->wr, S_ISDIR(e.st.st_mode) ? 0 : 1);
	ns_put32(&c->wr, 0);
	ns_put32(&c->wr, 0xFFFFFFFF);
	at = c->wr.len;
	ns_put16(&c->wr, 0);
	ns_put16(&c->wr, (uint16_t)(p.depth + 1));
	for (int i = p.depth - 1; i >= 0; i--) {
		char name[NCP_LONG_MAX + 1];

		if (!comp_name(c, &p, i, dns, name)) {
			c->cc = NCP_CC_BAD_PATH;
			return;
		}
		ncp_wrstr(&c->wr, name);
		size = (uint16_t)(size + 1 + strlen(name));
	}
	ncp_wrstr(&c->wr, c->srv->vols[p.vol].name);
	size = (uint16_t)(size + 1 + strlen(c->srv->vols[p.vol].name));
	if (!c->wr.bad)
		ipx_put16le(c->wr.p + at, size);
}

/* 0x18: 2 reserved, volume -> count LE2, the name spaces. */
static void ns_loaded(struct ncp_call *c)
{
	uint8_t vol;

	ncp_rdn(&c->rd, 2);
	vol = ncp_rd8(&c->rd);
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (vol >= c->srv->nvols) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_NO_VOLUME, NCP_CC_NO_VOLUME);
		return;
	}
	ns_put16(&c->wr, 2);
	ncp_wr8(&c->wr, NS_DOS);
	ncp_wr8(&c->wr, NS_LONG);
}

void ncp_fn_ns(struct ncp_call *c)
{
	uint8_t sub = ncp_rd8(&c->rd), ns;

	if (c->srv->dos_only) {
		ncp_unknown(c, false);
		return;
	}
	if (sub == 0x18) {
		ns_loaded(c);
		return;
	}
	ns = ncp_rd8(&c->rd);
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	switch (sub) {
	case 0x01: case 0x02: case 0x03: case 0x04: case 0x06: case 0x07:
	case 0x08: case 0x0C: case 0x14: case 0x16: case 0x1C: case 0x1D:
		break;
	default:
		ncp_unknown(c, true);
		return;
	}
	if (!ns_ok(c, ns))
		return;
	switch (sub) {
	case 0x01: ns_open_create(c, ns); break;
	case 0x02: init_search(c, ns); break;
	case 0x03: ns_search(c, ns); break;
	case 0x04: ns_rename(c, ns); break;
	case 0x06: obtain_info(c, ns, false); break;
	case 0x07: ns_modify(c, ns); break;
	case 0x08: ns_delete(c, ns); break;
	case 0x0C: alloc_short(c, ns); break;
	case 0x14: ns_search_set(c, ns); break;
	case 0x16: gen_base(c, ns); break;
	case 0x1C: full_path(c, ns); break;
	case 0x1D: obtain_info(c, ns, true); break;
	}
}
