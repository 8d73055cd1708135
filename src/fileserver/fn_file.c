/*
 * fn_file.c - files: open (0x41, 0x4C), create (0x43, 0x4D), open/create
 * (0x54), close (0x42), read (0x48), write (0x49), size (0x47), commit
 * (0x3B, 0x3D), erase (0x44), rename (0x45), attributes (0x46), date
 * stamp (0x4B).
 *
 * Durability: a write has been pwrite()n completely before its reply is
 * built, so a server killed after the reply loses nothing the host file
 * system has; commit adds fsync(). A zero-length write truncates at its
 * offset (as mars_nwe). Files are opened with O_NOFOLLOW and must be
 * regular files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "srv_int.h"

enum how { OPEN, CREATE_TRUNC, CREATE_NEW, OPEN_CREATE };

bool ncp_file_in_use(const struct ncp_server *srv, dev_t dev, ino_t ino)
{
	for (unsigned i = 0; i < srv->max_conns; i++) {
		const struct ncp_conn *cn = &srv->conns[i];

		for (unsigned k = 0; cn->used && k < srv->max_handles; k++)
			if (cn->files[k].used && cn->files[k].dev == dev &&
			    cn->files[k].ino == ino)
				return true;
	}
	return false;
}

/*
 * NetWare's share rule over every open handle of the file (any
 * connection, this one's too): an open that reads is refused while
 * another handle denies reading, one that writes while another denies
 * writing, and an open that denies reading (writing) while another
 * handle reads (writes). The refusal is 0x80, "file in use", before the
 * file is touched (a create over it truncates nothing).
 */
bool ncp_share_conflict(const struct ncp_server *srv, dev_t dev,
			ino_t ino, uint8_t mode)
{
	for (unsigned i = 0; i < srv->max_conns; i++) {
		const struct ncp_conn *cn = &srv->conns[i];

		for (unsigned k = 0; cn->used && k < srv->max_handles; k++) {
			const struct ncp_file *o = &cn->files[k];

			if (!o->used || o->dev != dev || o->ino != ino)
				continue;
			if (((mode & NCP_SHARE_READ) &&
			     (o->share & NCP_SHARE_DENY_READ)) ||
			    ((mode & NCP_SHARE_WRITE) &&
			     (o->share & NCP_SHARE_DENY_WRITE)) ||
			    ((mode & NCP_SHARE_DENY_READ) &&
			     (o->share & NCP_SHARE_READ)) ||
			    ((mode & NCP_SHARE_DENY_WRITE) &&
			     (o->share & NCP_SHARE_WRITE)))
				return true;
		}
	}
	return false;
}

struct ncp_file *ncp_file_slot(struct ncp_call *c)
{
	for (unsigned i = 0; i < c->srv->max_handles; i++)
		if (!c->conn->files[i].used)
			return &c->conn->files[i];
	c->cc = ncp_refuse(c, NCP_SRV_REF_HANDLES, NCP_CC_NO_HANDLES);
	return NULL;
}

/* Whether an open of these rights and action writes, and the share mode
 * it holds in *share: what it reads or writes (neither: read) and what it
 * denies others. */
static bool open_mode(enum how how, uint8_t rights, uint8_t action,
		      uint8_t *share)
{
	bool wr = (rights & NCP_RIGHT_WRITE) || how == CREATE_TRUNC ||
		  how == CREATE_NEW ||
		  (how == OPEN_CREATE &&
		   (action & (NCP_ACT_REPLACE | NCP_ACT_CREATE)));

	*share = rights & (NCP_SHARE_READ | NCP_SHARE_WRITE |
			   NCP_SHARE_DENY_READ | NCP_SHARE_DENY_WRITE);
	if (wr)
		*share |= NCP_SHARE_WRITE;
	if (!(*share & (NCP_SHARE_READ | NCP_SHARE_WRITE)))
		*share |= NCP_SHARE_READ;
	return wr;
}

/* Whether the name is there (r == 0) or not suits 'how' (c->cc set if
 * not), and whether the open then creates or truncates it. */
static void open_action(struct ncp_call *c, enum how how, uint8_t action,
			int r, bool *create, bool *trunc)
{
	switch (how) {
	case OPEN:
		if (r)
			c->cc = NCP_CC_FAILURE;
		break;
	case CREATE_TRUNC:
		*create = r != 0;
		*trunc = r == 0;
		break;
	case CREATE_NEW:
		if (r == 0)
			c->cc = NCP_CC_NAME_EXISTS;
		*create = true;
		break;
	case OPEN_CREATE:
		if (r == 0 && !(action & (NCP_ACT_OPEN | NCP_ACT_REPLACE)))
			c->cc = NCP_CC_NAME_EXISTS;
		else if (r != 0 && !(action & NCP_ACT_CREATE))
			c->cc = NCP_CC_FAILURE;
		*create = r != 0;
		*trunc = r == 0 && (action & NCP_ACT_REPLACE);
		break;
	}
}

/* The open file 'fd' in slot f, and the reply: its handle and entry. */
static void take_file(struct ncp_call *c, struct ncp_file *f, int fd,
		      bool wr, uint8_t share, const char *last,
		      const struct stat *st)
{
	uint8_t hd[NCP_HANDLE_LEN];

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f->used = true;
	f->fd = fd;
	f->task = c->hdr.task;
	f->writable = wr;
	f->readable = (share & NCP_SHARE_READ) != 0;
	f->share = share;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	snprintf(f->name, sizeof(f->name), "%s", last);
	c->conn->nfiles++;
	ncp_handle_of(c->conn, f, hd);
	ncp_wrn(&c->wr, hd, NCP_HANDLE_LEN);
	ncp_wr16(&c->wr, 0);
	ncp_put_file_entry(&c->wr, last, st);
}

/* The rights an open needs in its directory: Create for a new file,
 * Erase and Write to truncate one, else Read and/or Write as it opens. */
uint8_t ncp_open_rights(struct ncp_call *c, const struct ncp_path *p,
			bool wr, bool create, bool trunc, uint8_t share)
{
	uint8_t cc = 0;

	if (create)
		return ncp_rights_check(c, p, NCP_OP_CREATE);
	if (trunc && (cc = ncp_rights_check(c, p, NCP_OP_OVERWRITE)))
		return cc;
	if (wr && (cc = ncp_rights_check(c, p, NCP_OP_WRITE)))
		return cc;
	if (share & NCP_SHARE_READ)
		cc = ncp_rights_check(c, p, NCP_OP_READ);
	return cc;
}

static void open_file(struct ncp_call *c, enum how how, uint8_t dh,
		      uint8_t rights, uint8_t attr, uint8_t action, bool old)
{
	struct ncp_path p;
	char last[NCP_NAME_LEN + 1], host[256];
	struct stat st;
	struct ncp_file *f;
	bool wr, create = false, trunc = false;
	int dfd, fd, r, flags;
	uint8_t share;

	if (!ncp_rd_path(c, dh, &p, last, false) ||
	    !ncp_file_name_ok(c, &p, last))
		return;
	if (!last[0]) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (!(f = ncp_file_slot(c)))
		return;
	wr = open_mode(how, rights, action, &share);
	if (wr && ncp_vol_ro(c, p.vol)) {
		c->cc = how == OPEN ? NCP_CC_NO_WRITE : NCP_CC_NO_CREATE;
		return;
	}
	dfd = ncp_path_open_dir(c, &p, &c->cc);
	if (dfd < 0)
		return;
	r = ncp_lookup(c, dfd, last, host, sizeof(host), &st);
	if (r < 0 || (r == 0 && S_ISDIR(st.st_mode))) {
		c->cc = NCP_CC_FAILURE;
		goto out;
	}
	open_action(c, how, action, r, &create, &trunc);
	if (!c->cc && old && wr && c->srv->rights_file &&
	    !(ncp_rights_of(c, &p) & NCP_TR_WRITE)) {
		wr = false;	/* 0x41 without Write: read only */
		share = (share & ~NCP_SHARE_WRITE) | NCP_SHARE_READ;
	}
	if (!c->cc)
		c->cc = ncp_open_rights(c, &p, wr, create, trunc, share);
	if (!c->cc && r == 0 && ncp_share_conflict(c->srv, st.st_dev, st.st_ino,
						share))
		c->cc = ncp_refuse(c, NCP_SRV_REF_SHARE, NCP_CC_LOCK_FAIL);
	if (c->cc)
		goto out;
	flags = (wr ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
	if (create) {
		mode_t mode = (attr & NCP_ATTR_READ_ONLY) ? 0444 : 0644;

		fd = openat(dfd, last, flags | O_CREAT | O_EXCL, mode);
		snprintf(host, sizeof(host), "%s", last);
	} else {
		fd = openat(dfd, host, flags | (trunc ? O_TRUNC : 0));
	}
	if (fd < 0) {
		c->cc = errno == EACCES ? (wr ? NCP_CC_NO_WRITE : NCP_CC_NO_OPEN)
		      : errno == ELOOP ? ncp_refuse(c, NCP_SRV_REF_SYMLINK,
						    NCP_CC_FAILURE)
		      : errno == EEXIST ? NCP_CC_NAME_EXISTS
		      : errno == ENOSPC ? NCP_CC_DIR_FULL : NCP_CC_IO;
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		c->cc = ncp_refuse(c, NCP_SRV_REF_SYMLINK, NCP_CC_FAILURE);
		goto out;
	}
	if (create || trunc)
		ncp_disk_dir(c->srv);	/* a new entry, or its FAT freed */
	take_file(c, f, fd, wr, share, last, &st);
out:
	close(dfd);
}

/* +7 reserved, +8 handle: the open file, or NULL with cc set. */
static struct ncp_file *rd_handle(struct ncp_call *c)
{
	const uint8_t *h;
	struct ncp_file *f;

	ncp_rd8(&c->rd);
	h = ncp_rdn(&c->rd, NCP_HANDLE_LEN);
	if (!h) {
		ncp_malformed(c);
		return NULL;
	}
	f = ncp_file_of(c, h);
	if (!f)
		c->cc = NCP_CC_BAD_HANDLE;
	return f;
}

static void read_file(struct ncp_call *c)
{
	struct ncp_file *f = rd_handle(c);
	uint32_t off = ncp_rd32(&c->rd);
	uint16_t max = ncp_rd16(&c->rd);
	size_t room, pad = off & 1;
	ssize_t got;
	uint8_t *dst;

	if (!f)
		return;
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (!f->readable) {	/* opened write-only */
		c->cc = NCP_CC_NO_READ;
		return;
	}
	if (max > c->conn->bufsize)
		max = c->conn->bufsize;
	room = c->wr.cap - c->wr.len - 2 - pad;
	if (max > room)
		max = (uint16_t)room;
	if (ncp_locks_blocked(c->srv, c->conn, f->dev, f->ino, off, max,
			      false)) {
		c->cc = NCP_CC_REGION_LOCKED;
		return;
	}
	dst = c->wr.p + c->wr.len + 2 + pad;
	got = pread(f->fd, dst, max, off);
	if (got < 0) {
		c->cc = NCP_CC_IO;
		return;
	}
	ncp_disk(c->srv, f->dev, f->ino, off, (uint64_t)got, false);
	ncp_wr16(&c->wr, (uint16_t)got);
	if (pad)
		ncp_wr8(&c->wr, 0);
	c->wr.len += (size_t)got;
	c->srv->stats.bytes_read += (uint64_t)got;
}

static void write_file(struct ncp_call *c)
{
	struct ncp_file *f = rd_handle(c);
	uint32_t off = ncp_rd32(&c->rd);
	uint16_t cnt = ncp_rd16(&c->rd);
	const uint8_t *data = ncp_rdn(&c->rd, cnt);
	size_t done = 0;

	if (!f)
		return;
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (!f->writable) {
		c->cc = NCP_CC_NO_WRITE;
		return;
	}
	if (ncp_locks_blocked(c->srv, c->conn, f->dev, f->ino, off,
			      cnt ? cnt : 0xFFFFFFFFu - off, true)) {
		c->cc = NCP_CC_REGION_LOCKED;
		return;
	}
	if (cnt == 0) {
		if (ftruncate(f->fd, off) < 0)
			c->cc = NCP_CC_IO;
		return;
	}
	while (done < cnt) {
		ssize_t w = pwrite(f->fd, data + done, cnt - done,
				   (off_t)off + (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->cc = errno == ENOSPC ? NCP_CC_DIR_FULL : NCP_CC_IO;
			return;
		}
		done += (size_t)w;
	}
	c->srv->stats.bytes_written += cnt;
}

static void close_file(struct ncp_call *c)
{
	struct ncp_file *f = rd_handle(c);
	uint8_t h[NCP_HANDLE_LEN];

	if (!f)
		return;
	ncp_handle_of(c->conn, f, h);
	ncp_locks_close_file(c->srv, c->conn, h);
	close(f->fd);
	f->used = false;
	f->gen++;
	c->conn->nfiles--;
}

/* Erase every regular file of the directory that matches. */
static void erase(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd);
	struct ncp_path p;
	char pat[NCP_NAME_LEN + 1];
	struct ncp_dirent *v;
	size_t cnt, matched = 0, busy = 0, ro = 0, gone = 0;
	int fd;

	ncp_rd8(&c->rd);	/* search attributes: no hidden files here */
	if (!ncp_rd_path(c, dh, &p, pat, true) ||
	    !ncp_file_name_ok(c, &p, pat))
		return;
	if (!pat[0]) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (ncp_vol_ro(c, p.vol)) {
		c->cc = NCP_CC_NO_DELETE;
		return;
	}
	if ((c->cc = ncp_rights_check(c, &p, NCP_OP_ERASE)))
		return;
	fd = ncp_path_open_dir(c, &p, &c->cc);
	if (fd < 0)
		return;
	ncp_list_path(c, &p, fd, &v, &cnt);
	for (size_t k = 0; k < cnt; k++) {
		if (!S_ISREG(v[k].st.st_mode) || !ncp_wild_match(pat, v[k].name))
			continue;
		matched++;
		if (ncp_file_in_use(c->srv, v[k].st.st_dev, v[k].st.st_ino))
			busy++;
		else if (!(v[k].st.st_mode & S_IWUSR))
			ro++;
		else if (unlinkat(fd, v[k].host, 0) == 0)
			gone++;
	}
	close(fd);
	free(v);
	if (gone)
		ncp_disk_dir(c->srv);
	if (matched == 0)
		c->cc = NCP_CC_FAILURE;
	else if (busy == matched)
		c->cc = NCP_CC_ALL_IN_USE;
	else if (ro == matched)
		c->cc = NCP_CC_ALL_RO;
	else if (busy)
		c->cc = NCP_CC_SOME_IN_USE;
	else if (ro)
		c->cc = NCP_CC_SOME_RO;
	else if (gone < matched)
		c->cc = NCP_CC_IO;
}

static void rename_file(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd), sattr = ncp_rd8(&c->rd);
	uint8_t n = ncp_rd8(&c->rd), dh2, n2;
	const uint8_t *t = ncp_rdn(&c->rd, n), *t2;
	struct ncp_path p, p2;
	char last[NCP_NAME_LEN + 1], last2[NCP_NAME_LEN + 1];
	char host[256], host2[256];
	struct stat st;
	int fd = -1, fd2 = -1;

	(void)sattr;
	dh2 = ncp_rd8(&c->rd);
	n2 = ncp_rd8(&c->rd);
	t2 = ncp_rdn(&c->rd, n2);
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	c->cc = ncp_path_parse(c, dh, t, n, &p, last, false);
	if (c->cc || !ncp_file_name_ok(c, &p, last))
		return;
	c->cc = ncp_path_parse(c, dh2, t2, n2, &p2, last2, false);
	if (c->cc || !ncp_file_name_ok(c, &p2, last2))
		return;
	if (!last[0] || !last2[0]) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (p.vol != p2.vol) {
		c->cc = NCP_CC_CROSS_VOLUME;
		return;
	}
	if (ncp_vol_ro(c, p.vol)) {
		c->cc = NCP_CC_NO_RENAME;
		return;
	}
	if ((c->cc = ncp_rights_check(c, &p, NCP_OP_RENAME)) ||
	    (!ncp_path_same(&p, &p2) &&
	     (c->cc = ncp_rights_check(c, &p2, NCP_OP_MOVE_INTO))))
		return;
	if ((fd = ncp_path_open_dir(c, &p, &c->cc)) < 0 ||
	    (fd2 = ncp_path_open_dir(c, &p2, &c->cc)) < 0)
		goto out;
	if (ncp_lookup(c, fd, last, host, sizeof(host), &st) != 0 ||
	    !S_ISREG(st.st_mode))
		c->cc = NCP_CC_FAILURE;
	else if (ncp_lookup(c, fd2, last2, host2, sizeof(host2), &st) != 1)
		c->cc = NCP_CC_NAME_EXISTS;
	else if (renameat2(fd, host, fd2, last2, RENAME_NOREPLACE) < 0)
		c->cc = errno == EEXIST ? NCP_CC_NAME_EXISTS : NCP_CC_IO;
out:
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
}

static void set_attributes(struct ncp_call *c)
{
	uint8_t attr = ncp_rd8(&c->rd), dh = ncp_rd8(&c->rd);
	struct ncp_path p;
	char last[NCP_NAME_LEN + 1], host[256];
	struct stat st;
	int dfd, fd;

	ncp_rd8(&c->rd);	/* search attributes */
	if (!ncp_rd_path(c, dh, &p, last, false) ||
	    !ncp_file_name_ok(c, &p, last))
		return;
	if (ncp_vol_ro(c, p.vol)) {
		c->cc = NCP_CC_NO_MODIFY;
		return;
	}
	if ((c->cc = ncp_rights_check(c, &p, NCP_OP_MODIFY)))
		return;
	dfd = ncp_path_open_dir(c, &p, &c->cc);
	if (dfd < 0)
		return;
	if (!last[0] || ncp_lookup(c, dfd, last, host, sizeof(host), &st) ||
	    !S_ISREG(st.st_mode)) {
		c->cc = NCP_CC_FAILURE;
		close(dfd);
		return;
	}
	fd = openat(dfd, host, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    fchmod(fd, (attr & NCP_ATTR_READ_ONLY)
			       ? (st.st_mode & 07555)
			       : (st.st_mode & 07777) | S_IWUSR) < 0)
		c->cc = NCP_CC_NO_MODIFY;
	if (fd >= 0)
		close(fd);
}

static void set_stamp(struct ncp_call *c)
{
	struct ncp_file *f = rd_handle(c);
	uint16_t tm = ncp_rd16(&c->rd), dt = ncp_rd16(&c->rd);
	struct tm t = { 0 };
	struct timespec ts[2];

	if (!f)
		return;
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	t.tm_year = (dt >> 9) + 80;
	t.tm_mon = ((dt >> 5) & 15) - 1;
	t.tm_mday = dt & 31;
	t.tm_hour = tm >> 11;
	t.tm_min = (tm >> 5) & 63;
	t.tm_sec = (tm & 31) * 2;
	t.tm_isdst = -1;
	ts[0].tv_nsec = UTIME_OMIT;
	ts[0].tv_sec = 0;
	ts[1].tv_sec = mktime(&t);
	ts[1].tv_nsec = 0;
	if (!f->writable || futimens(f->fd, ts) < 0)
		c->cc = NCP_CC_NO_MODIFY;
}

/* 0x41, the old-style open: read/write where it can, else read only (a
 * read-only file, or one another open denies writes to). */
static void open_old(struct ncp_call *c)
{
	uint8_t dh = ncp_rd8(&c->rd);

	ncp_rd8(&c->rd);
	open_file(c, OPEN, dh,
		  c->conn->logged_in && dh && dh <= NCP_DIR_HANDLES &&
			  c->conn->dirh[dh - 1].used &&
			  !c->srv->vols[c->conn->dirh[dh - 1].path.vol].ro
		      ? NCP_RIGHT_READ | NCP_RIGHT_WRITE
		      : NCP_RIGHT_READ,
		  0, 0, true);
	if (c->cc == NCP_CC_NO_WRITE ||	/* a read-only file */
	    c->cc == NCP_CC_LOCK_FAIL) {	/* or one denying writes */
		c->cc = 0;
		c->wr.len = 0;
		ncp_rd_init(&c->rd, c->rd.p, c->rd.len);
		ncp_rd8(&c->rd);
		ncp_rd8(&c->rd);
		open_file(c, OPEN, dh, NCP_RIGHT_READ, 0, 0, true);
	}
}

void ncp_fn_file(struct ncp_call *c)
{
	struct ncp_file *f;
	struct stat st;
	uint8_t dh, a, b, act;

	switch (c->hdr.function) {
	case 0x3B:
	case 0x3D:
		if ((f = rd_handle(c))) {
			c->srv->stats.fsyncs++;
			if (fsync(f->fd) < 0)
				c->cc = NCP_CC_IO;
		}
		return;
	case 0x41:
		open_old(c);
		return;
	case 0x42:
		close_file(c);
		return;
	case 0x43:
	case 0x4D:
		dh = ncp_rd8(&c->rd);
		a = ncp_rd8(&c->rd);
		open_file(c, c->hdr.function == 0x43 ? CREATE_TRUNC : CREATE_NEW,
			  dh, NCP_RIGHT_READ | NCP_RIGHT_WRITE, a, 0, false);
		return;
	case 0x44:
		erase(c);
		return;
	case 0x45:
		rename_file(c);
		return;
	case 0x46:
		set_attributes(c);
		return;
	case 0x47:
		if ((f = rd_handle(c))) {
			if (fstat(f->fd, &st) < 0)
				c->cc = NCP_CC_IO;
			else
				ncp_wr32(&c->wr, (uint32_t)st.st_size);
		}
		return;
	case 0x48:
		read_file(c);
		return;
	case 0x49:
		write_file(c);
		return;
	case 0x4B:
		set_stamp(c);
		return;
	case 0x4C:
		dh = ncp_rd8(&c->rd);
		ncp_rd8(&c->rd);	/* search attributes */
		b = ncp_rd8(&c->rd);
		open_file(c, OPEN, dh, b, 0, 0, false);
		return;
	case 0x54:
		dh = ncp_rd8(&c->rd);
		a = ncp_rd8(&c->rd);
		b = ncp_rd8(&c->rd);
		act = ncp_rd8(&c->rd);
		open_file(c, OPEN_CREATE, dh, b, a, act, false);
		return;
	}
}
