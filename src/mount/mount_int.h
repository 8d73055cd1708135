/*
 * mount_int.h - inside the mount: the connection pool (pool.c) and the
 * FUSE operations (fuse.c).
 */
#ifndef IPXLAB_MOUNT_INT_H
#define IPXLAB_MOUNT_INT_H

#include <pthread.h>
#include <stdbool.h>

#include "ipxlab/loop.h"
#include "ipxlab/mount.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/sap.h"

#define MNT_NAME_CAP 1024	/* long names: 255 a name (names.c) */
/* The name an open file unlinked is renamed to until its last close:
 * "~IPX" and 4 hex digits, ".DEL"; readdir does not list them. */
#define MNT_HIDDEN_PREFIX "~IPX"
#define MNT_HIDDEN_EXT ".DEL"

/* The mount's own failures beside the client's codes (mnt_errno). */
enum { MNT_E_NOTDIR = 0x300, MNT_E_ISDIR, MNT_E_XDEV };

struct mconn {
	struct ipx_mount_node n;
	struct ipx_sap *sap;
	struct ncp_client *cl;
	unsigned idx;
	bool opened;
	bool busy;	/* a thread has it (under the pool's mutex) */
	bool up, ever_up;	/* only its holder changes these */
	unsigned gen;	/* bumped by every (re)connection */
	unsigned nfiles;	/* open files on it */
	const char *stage;	/* of mnt_connect, for its message */
};

struct mnt {
	const struct ipx_mount_opts *o;
	char vol[17];
	char found[48];		/* the server's name, once found */
	double retry, find_timeout, refind_timeout;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct mconn *c;
	unsigned n, rr;
	pthread_t pump;
	bool pumping, stopping;
	/* The server silent: calls fail at once but for a probe a second. */
	bool silent;
	ipx_time next_probe;
	unsigned uid, gid;
	struct mfile *files;	/* open files */
	unsigned hidden_seq;
	/* The connections use the LONG name space (names pass through). */
	bool long_names;
};

/* An open file: the connection and its generation when opened. */
struct mfile {
	int conn;
	unsigned gen;
	struct ncp_fh fh;
	/* The server's name (a hidden one once unlinked while open), in
	 * the mount's list of open files (under its mutex). */
	char name[MNT_NAME_CAP];
	bool unlinked;
	struct mfile *next;
};

void mnt_client_opts(double retry, struct ncp_client_opts *co);
bool mnt_lost(int rc);
int mnt_errno(int rc);
int mnt_connect(struct mnt *m, struct mconn *c);
struct mconn *mnt_take(struct mnt *m, int want);
struct mconn *mnt_take_up(struct mnt *m, int want, int *rc);
bool mnt_give(struct mnt *m, struct mconn *c, int rc);
void mnt_give_quiet(struct mnt *m, struct mconn *c);
int mnt_pick(struct mnt *m);
void mnt_unpick(struct mnt *m, int idx);
int mnt_pool_open(struct mnt *m);
void mnt_pool_close(struct mnt *m);

#endif
