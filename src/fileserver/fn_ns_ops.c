/*
 * fn_ns_ops.c - the 0x57 calls that list or change entries: open/create
 * (0x01), search (0x03), rename (0x04), modify DOS info (0x07), delete
 * (0x08), search for a set (0x14, what Linux's kernel ncpfs lists with). Requests as ncpfs libncp and mars_nwe send and read them; the
 * open modes, share rules and refusals are those of 0x4C/0x54 (fn_file.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ns_int.h"

/* Open/create modes and actions (mars_nwe OPC_*, ncpfs OC_MODE_*). */
enum { OC_OPEN = 0x01, OC_REPLACE = 0x02, OC_CREATE = 0x08 };
enum { ACT_OPENED = 0x01, ACT_CREATED = 0x02, ACT_REPLACED = 0x04 };
/* Search attributes: 0x10 directories only, 0x8000 files and dirs. */
enum { SA_DIRS = 0x0010, SA_BOTH = 0x8000 };

static void reply_entry(struct ncp_call *c, int dfd, const char *host,
			struct ns_ent *e, uint32_t rim, uint8_t ns)
{
	if (fstatat(dfd, host, &e->st, AT_SYMLINK_NOFOLLOW) == 0) {
		e->exists = true;
		snprintf(e->host, sizeof(e->host), "%s", host);
		ncp_dos_name_of(dfd, host, e->dos);
	}
	ns_put_info(c, e, rim, ns);
}

static void make_dir(struct ncp_call *c, uint8_t ns, struct ns_ent *e,
		     uint32_t rim)
{
	char host[NCP_LONG_MAX + 1];
	int dfd;

	/* In the DOS call's order (0x16 0x0A): the volume, the right, then
	 * a name there (0xFF). */
	if (ncp_vol_ro(c, e->dir.vol)) {
		c->cc = NCP_CC_NO_CREATE;
		return;
	}
	if ((c->cc = ncp_rights_check(c, &e->dir, NCP_OP_MKDIR)))
		return;
	if (e->exists) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (!ns_new_name(c, ns, e->host, host))
		return;
	if ((dfd = ns_open_parent(c, e)) < 0)
		return;
	if (mkdirat(dfd, host, 0755) < 0) {
		c->cc = errno == EEXIST ? NCP_CC_FAILURE : NCP_CC_IO;
	} else {
		ns_put32(&c->wr, 0);
		ncp_wr8(&c->wr, ACT_CREATED);
		ncp_wr8(&c->wr, 0);
		reply_entry(c, dfd, host, e, rim, ns);
	}
	close(dfd);
}

/* The open file fd into a slot, and the reply's handle and action. */
static void take(struct ncp_call *c, struct ncp_file *f, int fd, bool wr,
		 uint8_t share, const struct ns_ent *e, uint8_t act)
{
	uint8_t hd[NCP_HANDLE_LEN];
	struct stat st;

	fstat(fd, &st);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f->used = true;
	f->fd = fd;
	f->task = c->hdr.task;
	f->writable = wr;
	f->readable = (share & NCP_SHARE_READ) != 0;
	f->share = share;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	snprintf(f->name, sizeof(f->name), "%s", e->dos);
	c->conn->nfiles++;
	ncp_handle_of(c->conn, f, hd);
	ncp_wrn(&c->wr, hd + 2, 4);
	ncp_wr8(&c->wr, act);
	ncp_wr8(&c->wr, 0);
}

static uint8_t open_errno(struct ncp_call *c, bool wr)
{
	return errno == EACCES ? (wr ? NCP_CC_NO_WRITE : NCP_CC_NO_OPEN)
	       : errno == ELOOP ? ncp_refuse(c, NCP_SRV_REF_SYMLINK,
					     NCP_CC_FAILURE)
	       : errno == EEXIST ? NCP_CC_NAME_EXISTS
	       : errno == ENOSPC ? NCP_CC_DIR_FULL : NCP_CC_IO;
}

static void open_file(struct ncp_call *c, uint8_t ns, struct ns_ent *e,
		      uint8_t mode, uint16_t rights, uint32_t cattr,
		      uint32_t rim)
{
	char host[NCP_LONG_MAX + 1];
	bool create = !e->exists, trunc = e->exists && (mode & OC_REPLACE);
	bool wr = (rights & NCP_SHARE_WRITE) || create || trunc;
	uint8_t share = rights & (NCP_SHARE_READ | NCP_SHARE_WRITE |
				  NCP_SHARE_DENY_READ | NCP_SHARE_DENY_WRITE);
	struct ncp_file *f;
	int dfd, fd, flags;

	if (e->exists && S_ISDIR(e->st.st_mode)) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (e->exists && mode == OC_CREATE) {
		c->cc = NCP_CC_NO_CREATE_DELETE;
		return;
	}
	if (!e->exists && !(mode & (OC_CREATE | OC_REPLACE))) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (wr)
		share |= NCP_SHARE_WRITE;
	if (!(share & (NCP_SHARE_READ | NCP_SHARE_WRITE)))
		share |= NCP_SHARE_READ;
	if (create && !ns_new_name(c, ns, e->host, host))
		return;
	if (!create)
		snprintf(host, sizeof(host), "%s", e->host);
	if (wr && ncp_vol_ro(c, e->dir.vol)) {
		c->cc = create ? NCP_CC_NO_CREATE : NCP_CC_NO_WRITE;
		return;
	}
	if ((c->cc = ncp_open_rights(c, &e->dir, wr, create, trunc, share)))
		return;
	if (e->exists &&
	    ncp_share_conflict(c->srv, e->st.st_dev, e->st.st_ino, share)) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_SHARE, NCP_CC_LOCK_FAIL);
		return;
	}
	if (!(f = ncp_file_slot(c)) || (dfd = ns_open_parent(c, e)) < 0)
		return;
	flags = (wr ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
	if (create)
		fd = openat(dfd, host, flags | O_CREAT | O_EXCL,
			    (cattr & NCP_ATTR_READ_ONLY) ? 0444 : 0644);
	else
		fd = openat(dfd, host, flags | (trunc ? O_TRUNC : 0));
	if (fd < 0) {
		c->cc = open_errno(c, wr);
	} else {
		struct stat st;

		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			c->cc = ncp_refuse(c, NCP_SRV_REF_SYMLINK,
					   NCP_CC_FAILURE);
		} else {
			if (create)
				ncp_dos_name_of(dfd, host, e->dos);
			if (create || trunc)
				ncp_disk_dir(c->srv);
			take(c, f, fd, wr, share, e,
			     create ? ACT_OPENED | ACT_CREATED
			     : trunc ? ACT_OPENED | ACT_REPLACED : ACT_OPENED);
			reply_entry(c, dfd, host, e, rim, ns);
		}
	}
	close(dfd);
}

/* 0x01: mode, search attributes LE2, return-info mask LE4, create
 * attributes LE4, desired access rights LE2, handle path -> handle (4),
 * action, reserved, info. */
void ns_open_create(struct ncp_call *c, uint8_t ns)
{
	uint8_t mode = ncp_rd8(&c->rd);
	uint32_t rim, cattr;
	uint16_t rights;
	struct ns_ent e;

	ns_get16(&c->rd);
	rim = ns_get32(&c->rd);
	cattr = ns_get32(&c->rd);
	rights = ns_get16(&c->rd);
	if (!ns_rd_resolve(c, ns, &e))
		return;
	if (e.root) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (cattr & NCP_ATTR_DIRECTORY)
		make_dir(c, ns, &e, rim);
	else
		open_file(c, ns, &e, mode, rights, cattr, rim);
}

/* A search pattern: 0xFF escapes a wildcard; 0xAA, 0xBF, 0xAE are the
 * augmented '*', '?', '.'. Upper case for DOS. */
static bool rd_pattern(struct ncp_call *c, uint8_t ns, char *out)
{
	uint8_t n = ncp_rd8(&c->rd), k = 0;
	const uint8_t *p = ncp_rdn(&c->rd, n);

	if (c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		uint8_t ch = p[i];

		if (ch == 0xFF)
			continue;
		ch = ch == 0xAA ? '*' : ch == 0xBF ? '?' : ch == 0xAE ? '.' : ch;
		if (ns == NS_DOS && ch >= 'a' && ch <= 'z')
			ch = (uint8_t)(ch - 32);
		out[k++] = (char)ch;
	}
	out[k] = '\0';
	if (k == 0)
		strcpy(out, "*");
	return true;
}

static bool glob_ci(const char *p, const char *n)
{
	for (; *p; p++, n++) {
		if (*p == '*') {
			for (const char *k = n;; k++) {
				if (glob_ci(p + 1, k))
					return true;
				if (!*k)
					return false;
			}
		}
		if (!*n || (*p != '?' && strncasecmp(p, n, 1)))
			return false;
	}
	return *n == '\0';
}

static bool attr_ok(uint16_t sattr, const struct stat *st)
{
	if (sattr & SA_BOTH)
		return true;
	return (sattr & SA_DIRS) ? S_ISDIR(st->st_mode)
				 : S_ISREG(st->st_mode);
}

/* The entries of the directory of a search sequence (volume, base),
 * sorted by DOS name: 0 with *v, *n and the directory's path. */
static int search_dir(struct ncp_call *c, uint8_t vol, uint32_t base,
		      struct ncp_path *p, struct ncp_dirent **v, size_t *n)
{
	struct ns_ent d;
	int fd;

	if ((c->cc = ns_base_find(c, vol, base, &d)))
		return -1;
	if (!S_ISDIR(d.st.st_mode)) {
		c->cc = NCP_CC_FAILURE;
		return -1;
	}
	ns_full_path(&d, p);
	if ((c->cc = ncp_rights_check(c, p, NCP_OP_SCAN)))
		return -1;
	if ((fd = ncp_path_open_dir(c, p, &c->cc)) < 0)
		return -1;
	ncp_list_path(c, p, fd, v, n);
	close(fd);
	return 0;
}

/* The next entry from index 'from' matching: its index, or -1. */
static long next_entry(const struct ncp_dirent *v, size_t n, size_t from,
		       uint8_t ns, uint16_t sattr, const char *pat)
{
	for (size_t i = from; i < n; i++) {
		const char *name = ns == NS_LONG ? v[i].host : v[i].name;

		if (attr_ok(sattr, &v[i].st) &&
		    (ns == NS_DOS ? ncp_wild_match(pat, name)
				  : glob_ci(pat, name)))
			return (long)i;
	}
	return -1;
}

static void put_entry(struct ncp_call *c, const struct ncp_path *p,
		      const struct ncp_dirent *d, uint32_t rim, uint8_t ns)
{
	struct ns_ent e;

	memset(&e, 0, sizeof(e));
	e.dir = *p;
	e.exists = true;
	memcpy(e.dos, d->name, sizeof(e.dos));
	snprintf(e.host, sizeof(e.host), "%s", d->host);
	e.st = d->st;
	ns_put_info(c, &e, rim, ns);
}

/* 0x03 (one entry) and 0x14 (a set: a count LE2 after the mask): data
 * stream, search attributes LE2, return-info mask LE4, [count,] the
 * search sequence (volume, base LE4, sequence LE4), pattern -> the
 * sequence again, then 0x03: reserved, the info; 0x14: more entries
 * (0xFF) or not, the count LE2, the infos (each with its name, as many
 * as asked and fit the packet). Sequence = index in the sorted list. */
static void search(struct ncp_call *c, uint8_t ns, bool set)
{
	uint16_t sattr, want = 1, got = 0;
	uint32_t rim, base, seq;
	uint8_t vol;
	char pat[256];
	struct ncp_path p;
	struct ncp_dirent *v;
	size_t n, head;
	long i;

	ncp_rd8(&c->rd);
	sattr = ns_get16(&c->rd);
	rim = ns_get32(&c->rd);
	if (set)
		want = ns_get16(&c->rd);
	vol = ncp_rd8(&c->rd);
	base = ns_get32(&c->rd);
	seq = ns_get32(&c->rd);
	if (!rd_pattern(c, ns, pat) || search_dir(c, vol, base, &p, &v, &n))
		return;
	if (set)
		rim |= NS_RIM_NAME;	/* entries are told apart by it */
	i = next_entry(v, n, seq == 0xFFFFFFFF ? 0 : seq + 1, ns, sattr, pat);
	if (i < 0) {
		c->cc = NCP_CC_FAILURE;
		free(v);
		return;
	}
	ncp_wr8(&c->wr, vol);
	ns_put32(&c->wr, base);
	head = c->wr.len;
	ns_put32(&c->wr, 0);	/* the sequence, filled in below */
	ncp_wr8(&c->wr, 0);	/* reserved / more entries */
	if (set)
		ns_put16(&c->wr, 0);	/* the count, below */
	for (; i >= 0 && got < (want ? want : 1); got++) {
		size_t room = c->wr.cap - c->wr.len;

		if (got && room < 77 + strlen(ns == NS_LONG ? v[i].host
								 : v[i].name))
			break;
		put_entry(c, &p, &v[i], rim, ns);
		ipx_put16le(c->wr.p + head, (uint16_t)i);
		ipx_put16le(c->wr.p + head + 2, (uint16_t)((size_t)i >> 16));
		if (!set)
			break;
		i = next_entry(v, n, (size_t)i + 1, ns, sattr, pat);
	}
	if (set) {
		c->wr.p[head + 4] = i >= 0 ? 0xFF : 0;
		ipx_put16le(c->wr.p + head + 5, got);
	}
	free(v);
}

void ns_search(struct ncp_call *c, uint8_t ns)
{
	search(c, ns, false);
}

void ns_search_set(struct ncp_call *c, uint8_t ns)
{
	search(c, ns, true);
}

static bool is_login_dir(const struct ns_ent *e)
{
	return e->dir.vol == 0 && e->dir.depth == 0 &&
	       !strcmp(e->dos, "LOGIN");
}

/* The rights a rename needs, as the DOS calls': Modify where the entry is
 * (a directory's own rights for a directory), Create in another target
 * directory. */
static uint8_t rename_rights(struct ncp_call *c, const struct ns_ent *s,
			     const struct ns_ent *d)
{
	struct ncp_path from;
	uint8_t cc;

	ns_rights_dir(s, &from);
	if ((cc = ncp_rights_check(c, &from, NCP_OP_RENAME)))
		return cc;
	if (!ncp_path_same(&s->dir, &d->dir))
		cc = ncp_rights_check(c, &d->dir, NCP_OP_MOVE_INTO);
	return cc;
}

/* A directory renamed: its trustees (and those below) follow it. */
static void rename_moved(struct ncp_call *c, const struct ns_ent *s,
			 const struct ns_ent *d, int dfd, const char *host)
{
	struct ncp_path from, to = d->dir;
	char dos[NCP_NAME_LEN + 1];

	if (!S_ISDIR(s->st.st_mode) || ncp_dos_name_of(dfd, host, dos) < 0 ||
	    to.depth >= NCP_MAX_DEPTH)
		return;
	ns_full_path(s, &from);
	memcpy(to.comp[to.depth++], dos, NCP_NAME_LEN + 1);
	ncp_rights_moved(c->srv, &from, &to);
}

/* 0x04: rename flag, search attributes LE2, source and destination handle
 * paths' fixed parts, then the source's and the destination's components
 * (the last of which is the new name). */
void ns_rename(struct ncp_call *c, uint8_t ns)
{
	struct ns_hpath hs, hd;
	struct ns_comp cs[NS_MAX_COMP], cd[NS_MAX_COMP];
	struct ns_ent s, d;
	char host[NCP_LONG_MAX + 1];
	int fs = -1, fd = -1;

	ncp_rd8(&c->rd);
	ns_get16(&c->rd);
	if (!ns_rd_hpath(c, &hs) || !ns_rd_hpath(c, &hd) ||
	    !ns_rd_comps(c, &hs, cs) || !ns_rd_comps(c, &hd, cd))
		return;
	if ((c->cc = ns_resolve(c, ns, &hs, cs, &s)) ||
	    (c->cc = ns_resolve(c, ns, &hd, cd, &d)))
		return;
	if (!s.exists || s.root) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	/* The destination found is the source itself (any case finds it):
	 * a new case of the name, as OS/2 allows; the same name: done. */
	if (d.exists && d.st.st_dev == s.st.st_dev &&
	    d.st.st_ino == s.st.st_ino && ns == NS_LONG) {
		if (!strcmp(d.asked, s.host))
			return;
		d.exists = false;
		snprintf(d.host, sizeof(d.host), "%s", d.asked);
	}
	if (s.dir.vol != d.dir.vol) {
		c->cc = NCP_CC_CROSS_VOLUME;
		return;
	}
	if (is_login_dir(&s)) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_LOGIN_DIR, NCP_CC_NO_RENAME);
		return;
	}
	if (ncp_vol_ro(c, s.dir.vol)) {
		c->cc = NCP_CC_NO_RENAME;
		return;
	}
	/* The rights before a name there, in the DOS call's order. */
	if ((c->cc = rename_rights(c, &s, &d)))
		return;
	if (d.exists) {
		c->cc = NCP_CC_NAME_EXISTS;
		return;
	}
	if (!ns_new_name(c, ns, d.host, host))
		return;
	if ((fs = ns_open_parent(c, &s)) >= 0 &&
	    (fd = ns_open_parent(c, &d)) >= 0) {
		if (renameat2(fs, s.host, fd, host, RENAME_NOREPLACE) < 0)
			c->cc = errno == EEXIST ? NCP_CC_NAME_EXISTS
						: NCP_CC_IO;
		else
			rename_moved(c, &s, &d, fd, host);
	}
	if (fs >= 0)
		close(fs);
	if (fd >= 0)
		close(fd);
}

/* 0x07: reserved, search attributes LE2, modify mask LE4, the 38-byte DOS
 * modify info, handle path. Kept: the read-only attribute (0x0002), the
 * modify date and time (0x0100, 0x0200), the access date (0x0800). */
void ns_modify(struct ncp_call *c, uint8_t ns)
{
	uint32_t mask, attr;
	const uint8_t *mi;
	struct ns_ent e;
	struct ncp_rd r;
	uint16_t mdate, mtime, adate;
	struct ncp_path in;
	int dfd;

	ncp_rd8(&c->rd);
	ns_get16(&c->rd);
	mask = ns_get32(&c->rd);
	mi = ncp_rdn(&c->rd, 38);
	if (!mi) {
		ncp_malformed(c);
		return;
	}
	if (!ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists || e.root) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	ncp_rd_init(&r, mi, 38);
	attr = ns_get32(&r);
	ncp_rdn(&r, 8);
	mdate = ns_get16(&r);
	mtime = ns_get16(&r);
	ncp_rdn(&r, 12);
	adate = ns_get16(&r);
	if (ncp_vol_ro(c, e.dir.vol)) {
		c->cc = NCP_CC_NO_MODIFY;
		return;
	}
	ns_rights_dir(&e, &in);
	if ((c->cc = ncp_rights_check(c, &in, NCP_OP_MODIFY)))
		return;
	if ((dfd = ns_open_parent(c, &e)) < 0)
		return;
	if ((mask & 0x0002) && S_ISREG(e.st.st_mode) &&
	    fchmodat(dfd, e.host, (attr & NCP_ATTR_READ_ONLY)
			 ? (e.st.st_mode & 07777 & ~0222)
			 : (e.st.st_mode & 07777) | S_IWUSR, 0) < 0)
		c->cc = NCP_CC_NO_MODIFY;
	if (mask & 0x0B00) {
		struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT },
					  { .tv_nsec = UTIME_OMIT } };
		struct tm tm = { 0 };

		if (mask & 0x0300) {
			tm.tm_year = (mdate >> 9) + 80;
			tm.tm_mon = ((mdate >> 5) & 15) - 1;
			tm.tm_mday = mdate & 31;
			tm.tm_hour = mtime >> 11;
			tm.tm_min = (mtime >> 5) & 63;
			tm.tm_sec = (mtime & 31) * 2;
			tm.tm_isdst = -1;
			ts[1] = (struct timespec){ .tv_sec = mktime(&tm) };
		}
		if (mask & 0x0800) {
			struct tm ta = { .tm_year = (adate >> 9) + 80,
					 .tm_mon = ((adate >> 5) & 15) - 1,
					 .tm_mday = adate & 31,
					 .tm_isdst = -1 };

			ts[0] = (struct timespec){ .tv_sec = mktime(&ta) };
		}
		if (utimensat(dfd, e.host, ts, AT_SYMLINK_NOFOLLOW) < 0)
			c->cc = NCP_CC_NO_MODIFY;
	}
	close(dfd);
}

/* 0x08: reserved, search attributes LE2, handle path. */
void ns_delete(struct ncp_call *c, uint8_t ns)
{
	struct ns_ent e;
	struct ncp_path in;
	bool dir;
	int dfd;

	ncp_rd8(&c->rd);
	ns_get16(&c->rd);
	if (!ns_rd_resolve(c, ns, &e))
		return;
	if (!e.exists || e.root) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (is_login_dir(&e)) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_LOGIN_DIR, NCP_CC_DIR_IN_USE);
		return;
	}
	if (ncp_vol_ro(c, e.dir.vol)) {
		c->cc = NCP_CC_NO_DELETE;
		return;
	}
	/* Erase in the directory a file is in; a directory: in itself. */
	dir = S_ISDIR(e.st.st_mode);
	ns_rights_dir(&e, &in);
	if ((c->cc = ncp_rights_check(c, &in, dir ? NCP_OP_RMDIR
						  : NCP_OP_ERASE)))
		return;
	if (S_ISREG(e.st.st_mode) &&
	    ncp_file_in_use(c->srv, e.st.st_dev, e.st.st_ino)) {
		c->cc = NCP_CC_ALL_IN_USE;
		return;
	}
	if (S_ISREG(e.st.st_mode) && !(e.st.st_mode & S_IWUSR)) {
		c->cc = NCP_CC_ALL_RO;
		return;
	}
	if ((dfd = ns_open_parent(c, &e)) < 0)
		return;
	if (unlinkat(dfd, e.host, dir ? AT_REMOVEDIR : 0) < 0)
		c->cc = errno == ENOTEMPTY || errno == EEXIST ? NCP_CC_DIR_IN_USE
			: NCP_CC_IO;
	else if (dir)
		ncp_rights_moved(c->srv, &in, NULL);
	else
		ncp_disk_dir(c->srv);	/* the entry and its FAT */
	close(dfd);
}
