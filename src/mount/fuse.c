/*
 * fuse.c - the FUSE operations of `ipxlab mount` (libfuse3's high-level
 * API, multithreaded): each call maps its path to the server's name
 * (ipx_mount_name), takes a connection from the pool and makes the NCP
 * calls of ncp_client.h. Nothing is cached here; the kernel caches
 * attributes and names for --attr-timeout (0 by default) and file pages
 * until the next open (docs/mount.md). Built only with libfuse3's
 * headers (IPXLAB_HAVE_FUSE); without them ipx_mount_run says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ipxlab/log.h"
#include "mount_int.h"

#ifdef IPXLAB_HAVE_FUSE

#define FUSE_USE_VERSION 31
#include <fcntl.h>
#include <fuse.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define NAME_CAP MNT_NAME_CAP

bool ipx_mount_available(void)
{
	return true;
}

static struct mnt *self(void)
{
	return fuse_get_context()->private_data;
}

static int map(struct mnt *m, const char *path, char *out)
{
	if (m->long_names)
		return ipx_mount_name_long(m->vol, path, out, NAME_CAP);
	return ipx_mount_name(m->vol, path, out, NAME_CAP);
}

static time_t dos_time(uint16_t date, uint16_t tm)
{
	struct tm t;

	if (!date)
		return 0;
	memset(&t, 0, sizeof(t));
	t.tm_year = 80 + (date >> 9);
	t.tm_mon = ((date >> 5) & 15) - 1;
	t.tm_mday = date & 31;
	t.tm_hour = tm >> 11;
	t.tm_min = (tm >> 5) & 63;
	t.tm_sec = (tm & 31) * 2;
	t.tm_isdst = -1;
	return mktime(&t);
}

static void fill_stat(struct mnt *m, const struct ncp_entry *e,
		      struct stat *st)
{
	bool dir = e->attr & NCP_ATTR_DIRECTORY;

	memset(st, 0, sizeof(*st));
	st->st_mode = dir ? S_IFDIR | 0755 : S_IFREG | 0644;
	if ((e->attr & NCP_ATTR_READ_ONLY) || m->o->read_only)
		st->st_mode &= ~(mode_t)0222;
	st->st_nlink = dir ? 2 : 1;
	st->st_uid = m->uid;
	st->st_gid = m->gid;
	st->st_size = dir ? 0 : e->size;
	st->st_blksize = 4096;
	st->st_blocks = (st->st_size + 511) / 512;
	st->st_mtime = st->st_atime = st->st_ctime = dos_time(e->date, e->time);
}

/* A path call on any connection, once more on a new connection if the
 * server answered that it no longer knows the old one. */
#define PATH_CALL(m, rc, call)                                  \
	do {                                                    \
		for (int try_ = 0; try_ < 2; try_++) {          \
			struct mconn *c = mnt_take_up(m, -1, &rc); \
			if (!c)                                 \
				break;                          \
			rc = (call);                            \
			if (!mnt_give(m, c, rc))                \
				break;                          \
		}                                               \
	} while (0)

static struct mconn *file_take(struct mnt *m, struct fuse_file_info *fi,
			       struct mfile **out, int *err);

static int op_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	struct ncp_entry e;
	int rc;

	if (!path && fi) {
		/* An open file unlinked (hard_remove): its handle. */
		struct mfile *f;
		struct mconn *c = file_take(m, fi, &f, &rc);
		uint32_t size = 0;

		if (!c)
			return rc;
		rc = ncp_file_size(c->cl, &f->fh, &size);
		mnt_give(m, c, rc);
		if (rc)
			return -mnt_errno(rc);
		memset(&e, 0, sizeof(e));
		e.size = size;
		fill_stat(m, &e, st);
		st->st_nlink = 0;
		return 0;
	}
	if (!path)
		return -ESTALE;
	if (!strcmp(path, "/")) {
		memset(&e, 0, sizeof(e));
		e.attr = NCP_ATTR_DIRECTORY;
		fill_stat(m, &e, st);
		return 0;
	}
	if ((rc = map(m, path, name)))
		return rc;
	PATH_CALL(m, rc, ncp_stat(c->cl, name, &e));
	if (rc)
		return -mnt_errno(rc);
	fill_stat(m, &e, st);
	return 0;
}

/* The last name of a server path. */
static const char *last_name(const char *name)
{
	const char *p = strrchr(name, '\\');

	return p ? p + 1 : strchr(name, ':') ? strchr(name, ':') + 1 : name;
}

static bool is_hidden(const char *n)
{
	size_t l = strlen(n);

	return l == 12 && !strncmp(n, MNT_HIDDEN_PREFIX, 4) &&
	       !strcmp(n + 8, MNT_HIDDEN_EXT);
}

struct dir_ctx {
	struct mnt *m;
	void *buf;
	fuse_fill_dir_t filler;
};

static int dir_entry(const struct ncp_entry *e, void *ctx)
{
	struct dir_ctx *d = ctx;
	struct stat st;

	if (is_hidden(e->name))
		return 0;
	fill_stat(d->m, e, &st);
	d->filler(d->buf, e->name, &st, 0, 0);
	return 0;
}

static int op_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	struct dir_ctx d = { m, buf, filler };
	int rc;

	(void)off;
	(void)fi;
	(void)flags;
	if ((rc = map(m, path, name)))
		return rc;
	/* A second try after a new connection would list the entries again:
	 * the buffer is filled anew only on the first. */
	{
		struct mconn *c = mnt_take_up(m, -1, &rc);

		if (!c)
			return -mnt_errno(rc);
		filler(buf, ".", NULL, 0, 0);
		filler(buf, "..", NULL, 0, 0);
		rc = ncp_list(c->cl, name, NULL, dir_entry, &d);
		mnt_give(m, c, rc);
	}
	return -mnt_errno(rc);
}

/* The open file of fi on its connection, taken; NULL with the errno:
 * ESTALE if the connection was made again since the open. */
static struct mconn *file_take(struct mnt *m, struct fuse_file_info *fi,
			       struct mfile **out, int *err)
{
	struct mfile *f = (struct mfile *)(uintptr_t)fi->fh;
	struct mconn *c;
	int rc;

	*out = f;
	c = mnt_take_up(m, f->conn, &rc);
	if (!c) {
		*err = -mnt_errno(rc);
		return NULL;
	}
	if (c->gen != f->gen) {
		mnt_give(m, c, 0);
		*err = -ESTALE;
		return NULL;
	}
	return c;
}

static int open_on(struct mnt *m, const char *name, enum ncp_open_mode mode,
		   bool trunc, bool excl, struct fuse_file_info *fi)
{
	struct mfile *f = calloc(1, sizeof(*f));
	struct mconn *c;
	int rc;

	if (!f)
		return -ENOMEM;
	f->conn = mnt_pick(m);
	for (int try = 0; try < 2; try++) {
		c = mnt_take_up(m, f->conn, &rc);
		if (!c)
			break;
		rc = ncp_open(c->cl, name, mode, &f->fh);
		if (rc && mode == NCP_OPEN_CREATE_NEW && !excl && !mnt_lost(rc)) {
			/* It exists (a race with another client): open it. */
			rc = ncp_open(c->cl, name, NCP_OPEN_WRITE, &f->fh);
		}
		if (!rc && trunc && f->fh.size) {
			rc = ncp_write(c->cl, &f->fh, 0, NULL, 0);
			if (rc && !mnt_lost(rc))
				ncp_close(c->cl, &f->fh);
		}
		f->gen = c->gen;
		if (!mnt_give(m, c, rc))
			break;
	}
	if (rc) {
		mnt_unpick(m, f->conn);
		free(f);
		return -mnt_errno(rc);
	}
	snprintf(f->name, sizeof(f->name), "%s", name);
	pthread_mutex_lock(&m->mu);
	f->next = m->files;
	m->files = f;
	pthread_mutex_unlock(&m->mu);
	fi->fh = (uint64_t)(uintptr_t)f;
	return 0;
}

/* Open here under this name (called with the mutex held). */
static bool open_here(struct mnt *m, const char *name, const struct mfile *but)
{
	for (const struct mfile *f = m->files; f; f = f->next)
		if (f != but && !strcmp(f->name, name))
			return true;
	return false;
}

/*
 * Erase a file; one the server will not erase because it is open (NetWare
 * erases no open file) and that is open through this mount is renamed to
 * a hidden name in its directory instead, erased at its last close, so
 * that unlink of an open file works as POSIX says for this mount's users.
 */
static int erase_call(struct mnt *m, struct ncp_client *cl, const char *name)
{
	char hidden[NAME_CAP];
	size_t dl = (size_t)(last_name(name) - name);
	bool here;
	unsigned seq;
	int rc = ncp_erase(cl, name);

	if (rc != NCP_CC_LOCK_FAIL && rc != NCP_CC_SOME_IN_USE &&
	    rc != NCP_CC_ALL_IN_USE)
		return rc;
	pthread_mutex_lock(&m->mu);
	here = open_here(m, name, NULL);
	seq = m->hidden_seq++ & 0xFFFF;
	pthread_mutex_unlock(&m->mu);
	if (!here || dl + 13 > sizeof(hidden))
		return rc;
	memcpy(hidden, name, dl);
	snprintf(hidden + dl, sizeof(hidden) - dl, MNT_HIDDEN_PREFIX "%04X"
		 MNT_HIDDEN_EXT, seq);
	rc = ncp_rename(cl, name, hidden);
	if (rc)
		return rc;
	pthread_mutex_lock(&m->mu);
	for (struct mfile *f = m->files; f; f = f->next)
		if (!strcmp(f->name, name)) {
			snprintf(f->name, sizeof(f->name), "%s", hidden);
			f->unlinked = true;
		}
	pthread_mutex_unlock(&m->mu);
	return 0;
}

static int op_open(const char *path, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	int rc, acc = fi->flags & O_ACCMODE;

	if ((rc = map(m, path, name)))
		return rc;
	if (acc != O_RDONLY && m->o->read_only)
		return -EROFS;
	return open_on(m, name, acc == O_RDONLY ? NCP_OPEN_READ : NCP_OPEN_WRITE,
		       acc != O_RDONLY && (fi->flags & O_TRUNC), false, fi);
}

static int op_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	int rc;

	(void)mode;
	if ((rc = map(m, path, name)))
		return rc;
	if (m->o->read_only)
		return -EROFS;
	return open_on(m, name, NCP_OPEN_CREATE_NEW, fi->flags & O_TRUNC,
		       fi->flags & O_EXCL, fi);
}

static int op_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct mnt *m = self();
	struct mfile *f;
	struct mconn *c;
	size_t got = 0;
	int rc, err;

	(void)path;
	if (off < 0 || off > (off_t)UINT32_MAX)
		return 0;
	if ((uint64_t)off + size > UINT32_MAX)
		size = UINT32_MAX - (size_t)off;
	if (!(c = file_take(m, fi, &f, &err)))
		return err;
	rc = ncp_read(c->cl, &f->fh, (uint32_t)off, buf, size, &got);
	mnt_give(m, c, rc);
	return rc ? -mnt_errno(rc) : (int)got;
}

static int op_write(const char *path, const char *buf, size_t size,
		    off_t off, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	struct mfile *f;
	struct mconn *c;
	int rc, err;

	(void)path;
	if (off < 0 || (uint64_t)off + size > UINT32_MAX)
		return -EFBIG;	/* NCP offsets are 32 bits */
	if (!(c = file_take(m, fi, &f, &err)))
		return err;
	rc = ncp_write(c->cl, &f->fh, (uint32_t)off, buf, size);
	mnt_give(m, c, rc);
	return rc ? -mnt_errno(rc) : (int)size;
}

/* Truncate by name: open, a zero-length write at the size, close. */
static int trunc_path(struct ncp_client *cl, const char *name, uint32_t size)
{
	struct ncp_fh fh;
	int rc = ncp_open(cl, name, NCP_OPEN_WRITE, &fh), rc2;

	if (rc)
		return rc;
	rc = ncp_write(cl, &fh, size, NULL, 0);
	if (mnt_lost(rc))
		return rc;
	rc2 = ncp_close(cl, &fh);
	return rc ? rc : rc2;
}

/* The directory part of a server path ("SYS:A\\B" of "SYS:A\\B\\C"). */
static size_t dir_len(const char *name)
{
	return (size_t)(last_name(name) - name);
}

/*
 * rename(2). A file: 0x45. A directory: 0x16 0x0F, which renames within
 * its parent only (to another directory: EXDEV, and mv copies). What is
 * at the new name is replaced, as POSIX says, though NetWare refuses
 * (0x92): a file there is erased (or hidden if open here), an empty
 * directory removed, then the rename made again (not atomic).
 */
static int rename_call(struct mnt *m, struct ncp_client *cl, const char *a,
		       const char *b, unsigned flags)
{
	struct ncp_entry ea, eb;
	int rc, rb;

	if (!strcmp(a, b))
		return ncp_stat(cl, a, &ea);
	/* Long names: one entry in another case (lookups ignore case), so
	 * never "erase the target first": a new case of the name. */
	if (m->long_names && !strcasecmp(a, b))
		return ncp_rename(cl, a, b);
	rc = ncp_stat(cl, a, &ea);
	if (rc)
		return rc;
	rb = ncp_stat(cl, b, &eb);
	if (rb && rb != NCP_CC_FAILURE && rb != NCP_CC_BAD_PATH)
		return rb;
	if (!rb) {
		bool adir = ea.attr & NCP_ATTR_DIRECTORY;
		bool bdir = eb.attr & NCP_ATTR_DIRECTORY;

		if (flags & RENAME_NOREPLACE)
			return NCP_CC_NAME_EXISTS;
		if (adir != bdir)
			return adir ? MNT_E_NOTDIR : MNT_E_ISDIR;
		rc = bdir ? ncp_rmdir(cl, b) : erase_call(m, cl, b);
		if (rc)
			return rc;
	}
	if (!(ea.attr & NCP_ATTR_DIRECTORY))
		return ncp_rename(cl, a, b);
	if (dir_len(a) != dir_len(b) || strncmp(a, b, dir_len(a)))
		return MNT_E_XDEV;
	return ncp_rename_dir(cl, a, last_name(b));
}

static int op_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	struct mfile *f;
	int rc, err;

	if (size < 0 || size > (off_t)UINT32_MAX)
		return -EFBIG;
	if (m->o->read_only)
		return -EROFS;
	if (fi) {
		struct mconn *fc = file_take(m, fi, &f, &err);

		if (!fc)
			return err;
		rc = ncp_write(fc->cl, &f->fh, (uint32_t)size, NULL, 0);
		mnt_give(m, fc, rc);
		return -mnt_errno(rc);
	}
	if ((rc = map(m, path, name)))
		return rc;
	PATH_CALL(m, rc, trunc_path(c->cl, name, (uint32_t)size));
	return -mnt_errno(rc);
}

static int op_release(const char *path, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	struct mfile *f = (struct mfile *)(uintptr_t)fi->fh;
	struct mconn *c = mnt_take(m, f->conn);
	int rc = 0;
	bool last;

	(void)path;
	pthread_mutex_lock(&m->mu);
	for (struct mfile **p = &m->files; *p; p = &(*p)->next)
		if (*p == f) {
			*p = f->next;
			break;
		}
	last = f->unlinked && !open_here(m, f->name, NULL);
	pthread_mutex_unlock(&m->mu);
	/* A stale handle (the connection made again) is not the server's
	 * any more; a connection that is down is not waited on again. The
	 * last close of a file unlinked while open erases it. */
	if (c->up && c->gen == f->gen) {
		rc = ncp_close(c->cl, &f->fh);
		if (!rc && last)
			rc = ncp_erase(c->cl, f->name);
	}
	mnt_give(m, c, rc);
	mnt_unpick(m, f->conn);
	free(f);
	return 0;
}

static int op_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	struct mfile *f;
	struct mconn *c;
	int rc, err;

	(void)path;
	(void)datasync;
	if (!(c = file_take(m, fi, &f, &err)))
		return err;
	rc = ncp_commit(c->cl, &f->fh);
	mnt_give(m, c, rc);
	return -mnt_errno(rc);
}

static int op_flush(const char *path, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	struct mfile *f = (struct mfile *)(uintptr_t)fi->fh;
	int stale;

	(void)path;
	/* Every write went to the server already; a close of a file whose
	 * connection was made again says so. */
	pthread_mutex_lock(&m->mu);
	stale = m->c[f->conn].gen != f->gen;
	pthread_mutex_unlock(&m->mu);
	return stale ? -ESTALE : 0;
}

static int op_unlink(const char *path)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	int rc;

	if ((rc = map(m, path, name)))
		return rc;
	if (m->o->read_only)
		return -EROFS;
	PATH_CALL(m, rc, erase_call(m, c->cl, name));
	return -mnt_errno(rc);
}

static int op_mkdir(const char *path, mode_t mode)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	int rc;

	(void)mode;
	if ((rc = map(m, path, name)))
		return rc;
	if (m->o->read_only)
		return -EROFS;
	PATH_CALL(m, rc, ncp_mkdir(c->cl, name));
	return -mnt_errno(rc);
}

static int op_rmdir(const char *path)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	int rc;

	if ((rc = map(m, path, name)))
		return rc;
	if (m->o->read_only)
		return -EROFS;
	PATH_CALL(m, rc, ncp_rmdir(c->cl, name));
	return -mnt_errno(rc);
}

static int op_rename(const char *from, const char *to, unsigned int flags)
{
	struct mnt *m = self();
	char a[NAME_CAP], b[NAME_CAP];
	int rc;

	if ((rc = map(m, from, a)) || (rc = map(m, to, b)))
		return rc;
	if (m->o->read_only)
		return -EROFS;
	if (flags & ~(unsigned)RENAME_NOREPLACE)
		return -EINVAL;	/* NetWare cannot exchange two names */
	PATH_CALL(m, rc, rename_call(m, c->cl, a, b, flags));
	if (!rc) {	/* open files follow their name */
		pthread_mutex_lock(&m->mu);
		for (struct mfile *f = m->files; f; f = f->next)
			if (!strcmp(f->name, a))
				snprintf(f->name, sizeof(f->name), "%s", b);
		pthread_mutex_unlock(&m->mu);
	}
	return -mnt_errno(rc);
}

/* fcntl locks onto NCP physical record locks (0x1A, 0x1E) of the file's
 * handle: a read lock shareable, a write lock exclusive; a wait (F_SETLKW)
 * tries every 50 ms, the connection free between tries. */
static int op_lock(const char *path, struct fuse_file_info *fi, int cmd,
		   struct flock *l)
{
	struct mnt *m = self();
	struct mfile *f;
	struct mconn *c;
	uint32_t start, len;
	int rc, err;

	(void)path;
	if (l->l_start < 0 || l->l_start > (off_t)UINT32_MAX || l->l_len < 0)
		return -EINVAL;
	start = (uint32_t)l->l_start;
	len = l->l_len == 0 || (uint64_t)l->l_start + (uint64_t)l->l_len >
					UINT32_MAX
		      ? UINT32_MAX - start
		      : (uint32_t)l->l_len;
	for (;;) {
		if (!(c = file_take(m, fi, &f, &err)))
			return err;
		if (l->l_type == F_UNLCK) {
			rc = ncp_clear_record(c->cl, &f->fh, start, len);
			/* Nothing locked there: as POSIX, not an error. */
			if (rc == NCP_CC_FAILURE || rc == NCP_CC_BAD_STATION)
				rc = 0;
			mnt_give(m, c, rc);
			return -mnt_errno(rc);
		}
		rc = ncp_lock_record(c->cl, &f->fh,
				     l->l_type == F_RDLCK ? 0x03 : 0x01, start,
				     len, 0);
		if (cmd == F_GETLK) {
			if (!rc) {
				ncp_clear_record(c->cl, &f->fh, start, len);
				l->l_type = F_UNLCK;
			} else if (!mnt_lost(rc)) {
				l->l_type = F_WRLCK;	/* owner unknown */
				l->l_pid = 0;
				rc = 0;
			}
			mnt_give(m, c, rc);
			return -mnt_errno(rc);
		}
		mnt_give(m, c, rc);
		if (!rc || mnt_lost(rc))
			return -mnt_errno(rc);
		if (cmd != F_SETLKW)
			return -EAGAIN;
		if (fuse_interrupted())
			return -EINTR;
		usleep(50 * 1000);
	}
}

static int op_statfs(const char *path, struct statvfs *sv)
{
	(void)path;
	memset(sv, 0, sizeof(*sv));
	sv->f_bsize = sv->f_frsize = 4096;
	sv->f_blocks = sv->f_bfree = sv->f_bavail = 1u << 20;
	sv->f_files = sv->f_ffree = 1u << 16;
	sv->f_namemax = 12;	/* 8.3 */
	return 0;
}

/* NetWare 3 keeps no owner or Unix mode: accepted when they change
 * nothing (cp -p of a file whose mode is the one shown, an owner that is
 * the mounting user's), else EPERM. */
static int op_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	struct stat st;
	mode_t shown;
	bool ro = !(mode & 0200);
	int rc = op_getattr(path, &st, fi);

	if (rc)
		return rc;
	/* The read-only attribute is the one mode bit NetWare keeps: the
	 * write bits of a file, all or none. */
	shown = S_ISREG(st.st_mode) ? (ro ? 0444 : 0644) : st.st_mode & 07777;
	if ((mode & 07777) != shown)
		return -EPERM;
	if (!S_ISREG(st.st_mode) || ro == !(st.st_mode & 0200))
		return 0;
	if (m->o->read_only)
		return -EROFS;
	if ((rc = map(m, path, name)))
		return rc;
	PATH_CALL(m, rc, ncp_set_attributes(c->cl, name,
					    ro ? NCP_ATTR_READ_ONLY : 0));
	return -mnt_errno(rc);
}

static int op_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	struct mnt *m = self();

	(void)path;
	(void)fi;
	if ((uid == (uid_t)-1 || uid == m->uid) &&
	    (gid == (gid_t)-1 || gid == m->gid))
		return 0;
	return -EPERM;
}

/* A time as DOS keeps it (local, 2-second steps, 1980-2107). */
static void to_dos(time_t t, uint16_t *date, uint16_t *tm)
{
	struct tm lt;

	localtime_r(&t, &lt);
	if (lt.tm_year < 80) {
		*date = (1 << 5) | 1;	/* 1980-01-01 */
		*tm = 0;
		return;
	}
	if (lt.tm_year > 207)
		lt.tm_year = 207;
	*date = (uint16_t)(((lt.tm_year - 80) << 9) | ((lt.tm_mon + 1) << 5) |
			   lt.tm_mday);
	*tm = (uint16_t)((lt.tm_hour << 11) | (lt.tm_min << 5) |
			 (lt.tm_sec / 2));
}

/* Open for writing, set the stamp, close. */
static int stamp_path(struct ncp_client *cl, const char *name, uint16_t date,
		      uint16_t tm)
{
	struct ncp_fh fh;
	int rc = ncp_open(cl, name, NCP_OPEN_WRITE, &fh), rc2;

	if (rc)
		return rc;
	rc = ncp_set_stamp(cl, &fh, date, tm);
	if (mnt_lost(rc))
		return rc;
	rc2 = ncp_close(cl, &fh);
	return rc ? rc : rc2;
}

/* The modification time onto the file's date stamp (0x4B); the access
 * time is not kept. A directory's time cannot be set: accepted and
 * unchanged, so that cp -p, tar and touch work. */
static int op_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	struct mnt *m = self();
	char name[NAME_CAP];
	struct stat st;
	uint16_t date, tm;
	time_t t;
	int rc;

	if (tv && tv[1].tv_nsec == UTIME_OMIT)
		return 0;
	t = !tv || tv[1].tv_nsec == UTIME_NOW ? time(NULL) : tv[1].tv_sec;
	to_dos(t, &date, &tm);
	if ((rc = op_getattr(path, &st, fi)))
		return rc;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (m->o->read_only)
		return -EROFS;
	if (fi) {
		struct mfile *f;
		struct mconn *c = file_take(m, fi, &f, &rc);

		if (!c)
			return rc;
		rc = ncp_set_stamp(c->cl, &f->fh, date, tm);
		mnt_give(m, c, rc);
		if (rc != NCP_CC_NO_MODIFY)	/* else: opened read-only */
			return -mnt_errno(rc);
	}
	if (!path)
		return -ESTALE;
	if ((rc = map(m, path, name)))
		return rc;
	PATH_CALL(m, rc, stamp_path(c->cl, name, date, tm));
	return -mnt_errno(rc);
}

static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	struct mnt *m = self();

	/* Requests of up to 1 MB: fewer round trips through the kernel
	 * (each write is followed by an attribute request). */
	conn->max_write = 1024 * 1024;
	conn->max_readahead = 1024 * 1024;
	cfg->attr_timeout = m->o->attr_timeout;
	cfg->entry_timeout = m->o->attr_timeout;
	cfg->negative_timeout = 0;
	cfg->ac_attr_timeout_set = 1;
	cfg->ac_attr_timeout = m->o->attr_timeout;
	/* An unlinked open file is erased at once (a hidden rename to
	 * .fuse_hiddenXXX is no DOS name). */
	cfg->hard_remove = 1;
	cfg->use_ino = 0;
	cfg->kernel_cache = 0;	/* page cache dropped at every open */
	return m;
}

static const struct fuse_operations ops = {
	.init = op_init,
	.getattr = op_getattr,
	.readdir = op_readdir,
	.open = op_open,
	.create = op_create,
	.read = op_read,
	.write = op_write,
	.truncate = op_truncate,
	.release = op_release,
	.fsync = op_fsync,
	.flush = op_flush,
	.unlink = op_unlink,
	.mkdir = op_mkdir,
	.rmdir = op_rmdir,
	.rename = op_rename,
	.lock = op_lock,
	.statfs = op_statfs,
	.chmod = op_chmod,
	.chown = op_chown,
	.utimens = op_utimens,
};

int ipx_mount_run(const struct ipx_mount_opts *o)
{
	struct mnt m;
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse *f = NULL;
	char fsopt[200];
	size_t vl = strcspn(o->volume, ":");
	int rc = 1;

	memset(&m, 0, sizeof(m));
	m.o = o;
	if (vl == 0 || vl >= sizeof(m.vol) || o->volume[vl + (o->volume[vl] == ':')]) {
		fprintf(stderr, "ipxlab mount: bad volume name '%s'\n",
			o->volume);
		return 2;
	}
	memcpy(m.vol, o->volume, vl);
	m.retry = o->retry_time > 0 ? o->retry_time : 10;
	m.uid = (unsigned)getuid();
	m.gid = (unsigned)getgid();
	if (mnt_pool_open(&m) != 0)
		goto out;
	ipx_info("mount: %u connections to %s, volume %s", m.n, m.found, m.vol);
	snprintf(fsopt, sizeof(fsopt),
		 "fsname=ipxlab:%s/%s,subtype=ipxlab,default_permissions%s",
		 m.found, m.vol, o->read_only ? ",ro" : "");
	if (fuse_opt_add_arg(&args, "ipxlab") ||
	    (o->debug && fuse_opt_add_arg(&args, "-d")) ||
	    fuse_opt_add_arg(&args, "-o") || fuse_opt_add_arg(&args, fsopt))
		goto out;
	f = fuse_new(&args, &ops, sizeof(ops), &m);
	if (!f) {
		fprintf(stderr, "ipxlab mount: cannot start FUSE\n");
		goto out;
	}
	if (fuse_mount(f, o->mountpoint) != 0) {
		fprintf(stderr, "ipxlab mount: cannot mount on %s (is /dev/fuse "
				"there, and the directory?)\n",
			o->mountpoint);
		goto out;
	}
	if (fuse_set_signal_handlers(fuse_get_session(f)) != 0) {
		fuse_unmount(f);
		goto out;
	}
	fprintf(stderr, "ipxlab mount: %s:%s mounted on %s\n", m.found, m.vol,
		o->mountpoint);
	/* 0 after fusermount3 -u, the signal's number after one. */
	rc = fuse_loop_mt(f, 0);
	if (rc == SIGINT || rc == SIGTERM || rc == SIGHUP)
		rc = 0;
	rc = rc ? 1 : 0;
	fuse_remove_signal_handlers(fuse_get_session(f));
	fuse_unmount(f);
	if (!rc)
		fprintf(stderr, "ipxlab mount: %s unmounted\n", o->mountpoint);
out:
	if (f)
		fuse_destroy(f);
	fuse_opt_free_args(&args);
	/* Files still open at the unmount (their release never came):
	 * destroying the connections closes them on the server. */
	while (m.files) {
		struct mfile *next = m.files->next;

		free(m.files);
		m.files = next;
	}
	mnt_pool_close(&m);
	return rc;
}

#else /* no libfuse3 */

bool ipx_mount_available(void)
{
	return false;
}

int ipx_mount_run(const struct ipx_mount_opts *o)
{
	(void)o;
	fprintf(stderr, "ipxlab mount: this ipxlab was built without libfuse3 "
			"(install libfuse3-dev: scripts/install-deps.sh, then "
			"make)\n");
	return 1;
}

#endif
