/*
 * fn_rights.c - the trustee calls of the 0x16 family (layouts as
 * Wireshark's ncp2222.py): 0x0C Scan Directory For Trustees, 0x0D Add
 * Trustee To Directory, 0x0E Delete Trustee From Directory, 0x27 Add
 * Extended Trustee (a rights word, so Supervisory too) and 0x2A Get
 * Effective Rights For Directory Entry. The store itself is rights.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "srv_int.h"

#define SET_SIZE 5	/* trustees per 0x0C reply */

/* A length-prefixed directory path at the read position, resolved. */
static bool rd_dir(struct ncp_call *c, uint8_t dh, struct ncp_path *p)
{
	uint8_t n = ncp_rd8(&c->rd);
	const uint8_t *t = ncp_rdn(&c->rd, n);

	if (c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	c->cc = ncp_path_resolve_dir(c, dh, t, n, p);
	return c->cc == NCP_CC_OK;
}

/* 0x0C: +0 dh, +1 set number (0: the first five), +2 path. Reply: name
 * 16, creation date and time BE2, creator BE4, 5 trustee IDs BE4, 5
 * rights bytes; 0x9C past the last set. Needs Access Control. */
static void scan_trustees(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd), set = ncp_rd8(&c->rd);
	uint32_t ids[SET_SIZE] = { 0 };
	uint8_t rights[SET_SIZE] = { 0 };
	struct ncp_path p;
	struct stat st;
	size_t seen = 0, got = 0;
	int fd;

	if (!rd_dir(c, dh, &p) ||
	    (c->cc = ncp_rights_check(c, &p, NCP_OP_TRUSTEE)))
		return;
	for (size_t i = 0; i < c->srv->ntrustees && got < SET_SIZE; i++) {
		const struct ncp_trustee *t = &c->srv->trustees[i];
		const struct ncp_user *u;

		if (!ncp_path_same(&t->path, &p) ||
		    !(u = ncp_bindery_find(c->srv, t->user)))
			continue;
		if (seen++ / SET_SIZE != set)
			continue;
		ids[got] = u->id;
		rights[got++] = (uint8_t)t->rights;
	}
	if (!got) {
		c->cc = NCP_CC_BAD_PATH;	/* no more trustees */
		return;
	}
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0)
		memset(&st, 0, sizeof(st));
	close(fd);
	ncp_wrfixed(&c->wr, p.depth ? p.comp[p.depth - 1]
				    : c->srv->vols[p.vol].name, 16);
	ncp_wr16(&c->wr, ncp_dos_date(st.st_mtime));
	ncp_wr16(&c->wr, ncp_dos_time(st.st_mtime));
	ncp_wr32(&c->wr, 1);	/* creator: SUPERVISOR */
	for (size_t i = 0; i < SET_SIZE; i++)
		ncp_wr32(&c->wr, ids[i]);
	ncp_wrn(&c->wr, rights, SET_SIZE);
}

/* 0x0D, 0x27 (word: true) and 0x0E (del): +0 dh, +1 trustee ID BE4, +5
 * rights (1 byte; 0x27: a word, little-endian) or reserved, then path. */
static void change_trustee(struct ncp_call *c, bool word, bool del)
{
	uint8_t dh = ncp_rd8(&c->rd);
	uint32_t id = ncp_rd32(&c->rd);
	uint16_t r = ncp_rd8(&c->rd);
	const struct ncp_user *u;
	struct ncp_path p;

	if (word)
		r |= (uint16_t)(ncp_rd8(&c->rd) << 8);
	if (!c->srv->rights_file) {	/* no store to keep them in */
		ncp_unknown(c, true);
		return;
	}
	if (!rd_dir(c, dh, &p) ||
	    (c->cc = ncp_rights_check(c, &p, NCP_OP_TRUSTEE)))
		return;
	u = ncp_bindery_by_id(c->srv, id);
	if (!u) {
		c->cc = NCP_CC_NO_OBJECT;
		return;
	}
	r &= NCP_TR_ALL | NCP_TR_SUPER;
	/* Only who has Supervisory there may give it (as mars_nwe). */
	if (!del && (r & NCP_TR_SUPER) &&
	    !(ncp_rights_of(c, &p) & NCP_TR_SUPER)) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_NO_ACCESS_RIGHT,
				   NCP_CC_NO_MODIFY);
		return;
	}
	c->cc = ncp_rights_set(c->srv, &p, u->name, del ? -1 : r);
}

/* 0x2A: +0 dh, +1 path of a directory or file. Reply: the rights word,
 * little-endian (Wireshark's AccessRightsMaskWord). */
static void effective_word(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd), n = ncp_rd8(&c->rd), w[2];
	const uint8_t *t = ncp_rdn(&c->rd, n);
	char last[NCP_NAME_LEN + 1], host[256];
	struct ncp_path p;
	struct stat st;
	int fd, r;

	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	c->cc = ncp_path_parse(c, dh, t, n, &p, last, false);
	if (c->cc)
		return;
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	r = last[0] ? ncp_lookup(c, fd, last, host, sizeof(host), &st) : 1;
	close(fd);
	if (last[0] && r != 0) {
		c->cc = NCP_CC_BAD_PATH;
		return;
	}
	if (last[0] && S_ISDIR(st.st_mode) && p.depth < NCP_MAX_DEPTH)
		strcpy(p.comp[p.depth++], last);
	ipx_put16le(w, ncp_rights_of(c, &p));
	ncp_wrn(&c->wr, w, 2);
}

void ncp_fn_trustee(struct ncp_call *c, uint8_t sub)
{
	switch (sub) {
	case 0x0C:
		scan_trustees(c);
		return;
	case 0x0D:
		change_trustee(c, false, false);
		return;
	case 0x0E:
		change_trustee(c, false, true);
		return;
	case 0x27:
		change_trustee(c, true, false);
		return;
	default:
		effective_word(c);
	}
}
