/*
 * fn_dir.c - the 0x16 family: directory handles (set, path, allocate,
 * deallocate), directory scan, effective rights, volume number and name,
 * create, delete and rename directory, volume info by handle.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "srv_int.h"

/* Read a length-prefixed path from the request. */
static const uint8_t *rd_path(struct ncp_call *c, size_t *len)
{
	uint8_t n = ncp_rd8(&c->rd);
	const uint8_t *p = ncp_rdn(&c->rd, n);

	*len = n;
	return p;
}

static struct ncp_dirh *dirh_get(struct ncp_call *c, uint8_t dh)
{
	if (dh == 0 || dh > NCP_DIR_HANDLES || !c->conn->dirh[dh - 1].used) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_BAD_DIR_HANDLE,
				   NCP_CC_BAD_DIR_HANDLE);
		return NULL;
	}
	return &c->conn->dirh[dh - 1];
}


static void alloc_handle(struct ncp_call *c, bool temp)
{
	uint8_t src = ncp_rd8(&c->rd);
	size_t len;
	const uint8_t *t;
	struct ncp_path p;
	int i;

	ncp_rd8(&c->rd);	/* drive letter */
	t = rd_path(c, &len);
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	c->cc = ncp_path_resolve_dir(c, src, t, len, &p);
	if (c->cc)
		return;
	for (i = 0; i < NCP_DIR_HANDLES; i++)
		if (!c->conn->dirh[i].used)
			break;
	if (i == NCP_DIR_HANDLES) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_DIR_HANDLES,
				   NCP_CC_NO_DIR_HANDLES);
		return;
	}
	c->conn->dirh[i].used = true;
	c->conn->dirh[i].temp = temp;
	c->conn->dirh[i].task = c->hdr.task;
	c->conn->dirh[i].path = p;
	ncp_wr8(&c->wr, (uint8_t)(i + 1));
	ncp_wr8(&c->wr, ncp_rights_byte(c, &p));
}

static void scan_dir(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd);
	uint16_t start = ncp_rd16(&c->rd);
	size_t n;
	struct ncp_path p;
	char pat[NCP_NAME_LEN + 1];
	struct ncp_dirent *v;
	int fd;

	if (!ncp_rd_path(c, dh, &p, pat, true))
		return;
	if (!pat[0])
		strcpy(pat, "*");
	if ((c->cc = ncp_rights_check(c, &p, NCP_OP_SCAN)))
		return;
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	ncp_list_path(c, &p, fd, &v, &n);
	close(fd);
	c->cc = NCP_CC_FAILURE;
	/* Search numbers count from 1: entry k is number k + 1. */
	for (size_t k = start; k < n; k++) {
		struct ncp_path sub = p;

		if (!S_ISDIR(v[k].st.st_mode) || !ncp_wild_match(pat, v[k].name))
			continue;
		if (sub.depth < NCP_MAX_DEPTH)
			strcpy(sub.comp[sub.depth++], v[k].name);
		ncp_wrfixed(&c->wr, v[k].name, 16);
		ncp_wr16(&c->wr, ncp_dos_date(v[k].st.st_mtime));
		ncp_wr16(&c->wr, ncp_dos_time(v[k].st.st_mtime));
		ncp_wr32(&c->wr, 1);	/* creator: SUPERVISOR */
		ncp_wr8(&c->wr, ncp_rights_byte(c, &sub));
		ncp_wr8(&c->wr, 0);
		ncp_wr16(&c->wr, (uint16_t)(k + 1));
		c->cc = NCP_CC_OK;
		break;
	}
	free(v);
}

static void make_dir(struct ncp_call *c, bool create)
{
	uint8_t dh = ncp_rd8(&c->rd);
	struct ncp_path p;
	char last[NCP_NAME_LEN + 1], host[256];
	struct stat st;
	struct ncp_path target;
	int fd, r;

	ncp_rd8(&c->rd);	/* rights mask / reserved */
	if (!ncp_rd_path(c, dh, &p, last, false))
		return;
	if (!last[0]) {
		c->cc = NCP_CC_BAD_PATH;
		return;
	}
	if (ncp_vol_ro(c, p.vol)) {
		c->cc = create ? NCP_CC_NO_CREATE : NCP_CC_NO_DELETE;
		return;
	}
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	r = ncp_lookup(c, fd, last, host, sizeof(host), &st);
	target = p;
	if (p.depth < NCP_MAX_DEPTH)	/* rmdir: E in the directory */
		strcpy(target.comp[target.depth++], last);
	if ((c->cc = ncp_rights_check(c, create ? &p : &target,
				      create ? NCP_OP_MKDIR : NCP_OP_RMDIR))) {
		close(fd);
		return;
	}
	if (create) {
		if (r != 1)
			c->cc = NCP_CC_FAILURE;	/* exists */
		else if (mkdirat(fd, last, 0755) < 0)
			c->cc = errno == ENOSPC ? NCP_CC_DIR_FULL
						: NCP_CC_DIR_IO;
	} else {
		if (r != 0 || !S_ISDIR(st.st_mode))
			c->cc = NCP_CC_BAD_PATH;
		else if (p.depth == 0 && p.vol == 0 && !strcmp(last, "LOGIN"))
			c->cc = ncp_refuse(c, NCP_SRV_REF_LOGIN_DIR,
					   NCP_CC_DIR_IN_USE);
		else if (unlinkat(fd, host, AT_REMOVEDIR) < 0)
			c->cc = errno == ENOTEMPTY || errno == EEXIST
					? NCP_CC_DIR_IN_USE
					: NCP_CC_DIR_IO;
		else
			ncp_rights_moved(c->srv, &target, NULL);
	}
	close(fd);
}

static void rename_dir(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd);
	size_t len, nlen;
	const uint8_t *t = rd_path(c, &len);
	const uint8_t *nt = rd_path(c, &nlen);
	struct ncp_path p, from, to;
	char last[NCP_NAME_LEN + 1], host[256], nhost[256], nname[NCP_NAME_LEN + 1];
	struct stat st;
	int fd, ref;

	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	c->cc = ncp_path_parse(c, dh, t, len, &p, last, false);
	if (c->cc)
		return;
	ref = ncp_name_check((const char *)nt, nlen, false, nname);
	if (ref || !last[0]) {
		c->cc = ref ? ncp_refuse(c, (enum ncp_srv_refusal)(ref - 1),
					 NCP_CC_BAD_NAME)
			    : NCP_CC_BAD_PATH;
		return;
	}
	if (ncp_vol_ro(c, p.vol)) {
		c->cc = NCP_CC_NO_RENAME;
		return;
	}
	/* SYS:LOGIN is all a client sees before login: it keeps its name. */
	if (p.depth == 0 && p.vol == 0 && !strcmp(last, "LOGIN")) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_LOGIN_DIR, NCP_CC_NO_RENAME);
		return;
	}
	from = to = p;
	if (p.depth < NCP_MAX_DEPTH) {	/* M in the directory renamed */
		strcpy(from.comp[from.depth++], last);
		strcpy(to.comp[to.depth++], nname);
	}
	if ((c->cc = ncp_rights_check(c, &from, NCP_OP_RENAME)))
		return;
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	if (ncp_lookup(c, fd, last, host, sizeof(host), &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		c->cc = NCP_CC_BAD_PATH;
	else if (ncp_lookup(c, fd, nname, nhost, sizeof(nhost), &st) != 1)
		c->cc = NCP_CC_FAILURE;
	else if (renameat(fd, host, fd, nname) < 0)
		c->cc = NCP_CC_DIR_IO;
	else
		ncp_rights_moved(c->srv, &from, &to);
	close(fd);
}

/* 0x00: set a directory handle to a path from another handle. */
static void set_dir_path(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd), src = ncp_rd8(&c->rd);
	struct ncp_dirh *h;
	struct ncp_path p;
	size_t n;
	const uint8_t *t = rd_path(c, &n);

	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (!(h = dirh_get(c, dh)))
		return;
	c->cc = ncp_path_resolve_dir(c, src, t, n, &p);
	if (!c->cc)
		h->path = p;
}

/* 0x03: the effective rights in a directory. */
static void effective_rights(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd);
	struct ncp_path p;
	size_t n;
	const uint8_t *t = rd_path(c, &n);

	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	c->cc = ncp_path_resolve_dir(c, dh, t, n, &p);
	if (!c->cc)
		ncp_wr8(&c->wr, ncp_rights_byte(c, &p));
}

/* 0x05: a volume's number from its name. */
static void volume_number(struct ncp_call *c)
{
	char name[64];

	ncp_rdstr(&c->rd, name, sizeof(name));
	c->cc = NCP_CC_NO_VOLUME;
	for (size_t i = 0; !c->rd.bad && i < c->srv->nvols; i++)
		if (!strcasecmp(c->srv->vols[i].name, name)) {
			ncp_wr8(&c->wr, (uint8_t)i);
			c->cc = NCP_CC_OK;
		}
}

void ncp_fn_dir(struct ncp_call *c)
{
	uint16_t len = ncp_rd16(&c->rd);
	uint8_t sub = ncp_rd8(&c->rd);
	struct ncp_dirh *h;
	char buf[NCP_PATH_MAX + 1];
	uint8_t dh;

	if (c->rd.bad || len > c->rd.len - 2) {
		ncp_malformed(c);
		return;
	}
	switch (sub) {
	case 0x00:
		set_dir_path(c);
		return;
	case 0x01:
		if (!(h = dirh_get(c, ncp_rd8(&c->rd))))
			return;
		ncp_path_format(c->srv, &h->path, buf, sizeof(buf));
		ncp_wrstr(&c->wr, buf);
		return;
	case 0x02:
		scan_dir(c);
		return;
	case 0x03:
		effective_rights(c);
		return;
	case 0x05:
		volume_number(c);
		return;
	case 0x06:
		dh = ncp_rd8(&c->rd);
		if (c->rd.bad || dh >= c->srv->nvols) {
			c->cc = NCP_CC_NO_VOLUME;
			return;
		}
		ncp_wrstr(&c->wr, c->srv->vols[dh].name);
		return;
	case 0x0A:
		make_dir(c, true);
		return;
	case 0x0B:
		make_dir(c, false);
		return;
	case 0x0F:
		rename_dir(c);
		return;
	case 0x0C: case 0x0D: case 0x0E: case 0x27: case 0x2A:
		ncp_fn_trustee(c, sub);	/* fn_rights.c */
		return;
	case 0x12:
		alloc_handle(c, false);
		return;
	case 0x13:
	case 0x16:
		alloc_handle(c, true);
		return;
	case 0x14:
		if ((h = dirh_get(c, ncp_rd8(&c->rd))))
			h->used = false;
		return;
	case 0x15:
		if ((h = dirh_get(c, ncp_rd8(&c->rd))))
			ncp_fn_volume_info(c, h->path.vol);
		return;
	case 0x2C:	/* +10 volume number */
		dh = ncp_rd8(&c->rd);
		ncp_fn_volume_purge_info(c, c->rd.bad ? -1 : dh);
		return;
	default:
		ncp_unknown(c, true);
	}
}
