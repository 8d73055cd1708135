/*
 * fn_search.c - file search: 0x3E File Search Initialize, 0x3F File
 * Search Continue and 0x40 Search for a File. A search number is the
 * index of the entry returned in the directory's sorted listing of
 * visible DOS names (0xFFFF: start), so a search survives other changes
 * in the directory as well as a listing can.
 *
 * 0x3F directory entries use Wireshark's DirectoryInstance layout (name
 * 14, attributes 1, access rights 1, creation date BE2, access date BE2,
 * creator ID BE4, reserved 2, directory stamp 0xD1D1 BE2) rather than
 * mars_nwe's NW_DIR_INFO: docs/ncp.md says why.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srv_int.h"

void ncp_put_file_entry(struct ncp_wr *w, const char *name,
			const struct stat *st)
{
	ncp_wrfixed(w, name, 14);
	ncp_wr8(w, ncp_attr_of(st));
	ncp_wr8(w, 0);
	ncp_wr32(w, st->st_size > 0xFFFFFFFFll ? 0xFFFFFFFFu
					       : (uint32_t)st->st_size);
	ncp_wr16(w, ncp_dos_date(st->st_mtime));
	ncp_wr16(w, ncp_dos_date(st->st_atime));
	ncp_wr16(w, ncp_dos_date(st->st_mtime));
	ncp_wr16(w, ncp_dos_time(st->st_mtime));
}

static void put_dir_entry(struct ncp_wr *w, const char *name,
			  const struct stat *st, uint8_t rights)
{
	ncp_wrfixed(w, name, 14);
	ncp_wr8(w, NCP_ATTR_DIRECTORY);
	ncp_wr8(w, rights);
	ncp_wr16(w, ncp_dos_date(st->st_mtime));
	ncp_wr16(w, ncp_dos_time(st->st_mtime));
	ncp_wr32(w, 1);		/* creator: SUPERVISOR */
	ncp_wr16(w, 0);
	ncp_wr16(w, 0xD1D1);
}

/* The rights byte of subdirectory 'name' of 'dir'. Without a store, as
 * before: all once logged in, else Read. */
static uint8_t sub_rights(const struct ncp_call *c, const struct ncp_path *dir,
			  const char *name)
{
	struct ncp_path p = *dir;

	if (!c->srv->rights_file)
		return c->conn->logged_in ? NCP_RIGHTS_ALL : NCP_RIGHT_READ;
	if (p.depth < NCP_MAX_DEPTH)
		strcpy(p.comp[p.depth++], name);
	return ncp_rights_byte(c, &p);
}

/* The first entry after 'seq' (0xFFFF: from the start) that matches;
 * its index, or -1. */
static long next_match(const struct ncp_dirent *v, size_t n, uint16_t seq,
		       uint8_t sattr, const char *pat)
{
	for (size_t k = seq == 0xFFFF ? 0 : (size_t)seq + 1; k < n; k++) {
		if (S_ISDIR(v[k].st.st_mode) && !(sattr & NCP_SATTR_DIR))
			continue;
		if (ncp_wild_match(pat, v[k].name))
			return (long)k;
	}
	return -1;
}

/* Read a pattern (a single component, wildcards allowed). */
static bool rd_pattern(struct ncp_call *c, char *pat)
{
	uint8_t n = ncp_rd8(&c->rd);
	const uint8_t *p = ncp_rdn(&c->rd, n);
	int ref;

	if (c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	if (n == 0) {
		strcpy(pat, "*.*");
		return true;
	}
	ref = ncp_name_check((const char *)p, n, true, pat);
	if (ref) {
		c->cc = ncp_refuse(c, (enum ncp_srv_refusal)(ref - 1),
				   NCP_CC_BAD_NAME);
		return false;
	}
	return true;
}

static void search_init(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd);
	uint8_t n = ncp_rd8(&c->rd);
	const uint8_t *t = ncp_rdn(&c->rd, n);
	struct ncp_path p;
	struct ncp_conn *conn = c->conn;
	unsigned slot;

	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	c->cc = ncp_path_resolve_dir(c, dh, t, n, &p);
	if (c->cc)
		return;
	slot = conn->next_search++ % NCP_SEARCHES;
	conn->search[slot].used = true;
	conn->search[slot].path = p;
	ncp_wr8(&c->wr, (uint8_t)p.vol);
	ncp_wr16(&c->wr, (uint16_t)(slot + 1));
	ncp_wr16(&c->wr, 0xFFFF);
	ncp_wr8(&c->wr, ncp_rights_byte(c, &p));
}

static void search_continue(struct ncp_call *c)
{
	uint8_t vol = ncp_rd8(&c->rd);
	uint16_t id = ncp_rd16(&c->rd);
	uint16_t seq = ncp_rd16(&c->rd);
	uint8_t sattr = ncp_rd8(&c->rd);
	char pat[NCP_NAME_LEN + 1];
	struct ncp_search *s;
	struct ncp_dirent *v;
	size_t n;
	long k;
	int fd;

	if (!rd_pattern(c, pat))
		return;
	if (id == 0 || id > NCP_SEARCHES || !c->conn->search[id - 1].used ||
	    c->conn->search[id - 1].path.vol != vol) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	s = &c->conn->search[id - 1];
	if ((c->cc = ncp_rights_check(c, &s->path, NCP_OP_SCAN)))
		return;
	fd = ncp_path_open_dir(c, &s->path, &c->cc);
	if (fd < 0)
		return;
	ncp_list_path(c, &s->path, fd, &v, &n);
	close(fd);
	k = next_match(v, n, seq, sattr, pat);
	if (k < 0) {
		c->cc = NCP_CC_FAILURE;
	} else {
		ncp_wr16(&c->wr, (uint16_t)k);
		ncp_wr16(&c->wr, id);
		if (S_ISDIR(v[k].st.st_mode))
			put_dir_entry(&c->wr, v[k].name, &v[k].st,
				      sub_rights(c, &s->path, v[k].name));
		else
			ncp_put_file_entry(&c->wr, v[k].name, &v[k].st);
	}
	free(v);
}

static void search_file(struct ncp_call *c)
{
	uint16_t seq = ncp_rd16(&c->rd);
	uint8_t dh = ncp_rd8(&c->rd);
	uint8_t sattr = ncp_rd8(&c->rd);
	char pat[NCP_NAME_LEN + 1];
	struct ncp_path p;
	struct ncp_dirent *v;
	size_t cnt;
	long k;
	int fd;

	if (!ncp_rd_path(c, dh, &p, pat, true))
		return;
	if (!pat[0])
		strcpy(pat, "*.*");
	if ((c->cc = ncp_rights_check(c, &p, NCP_OP_SCAN)))
		return;
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	ncp_list_path(c, &p, fd, &v, &cnt);
	close(fd);
	k = next_match(v, cnt, seq, sattr, pat);
	if (k < 0) {
		c->cc = NCP_CC_FAILURE;
	} else {
		ncp_wr16(&c->wr, (uint16_t)k);
		ncp_wr16(&c->wr, 0);
		ncp_put_file_entry(&c->wr, v[k].name, &v[k].st);
	}
	free(v);
}

void ncp_fn_search(struct ncp_call *c)
{
	switch (c->hdr.function) {
	case 0x3E:
		search_init(c);
		break;
	case 0x3F:
		search_continue(c);
		break;
	default:
		search_file(c);
	}
}
