/*
 * srv_int.h - what the files of the NCP server share: the server and
 * connection structs, the connection table and the counted answers
 * (conn.c), the path resolver (names.c), the dispatcher (dispatch.c), the
 * function handlers (fn_*.c), record locks (locks.c) and the bindery
 * (bindery.c).
 */
#ifndef IPXLAB_FILESERVER_SRV_INT_H
#define IPXLAB_FILESERVER_SRV_INT_H

#include <sys/stat.h>
#include <sys/types.h>

#include "ipxlab/buf.h"
#include "ipxlab/loop.h"
#include "ipxlab/ncp_server.h"

#define NCP_SOCKET 0x0451
/* The socket a NetWare server sends its watchdog polls from and hears
 * the answers on (Wireshark's "IPX Message" socket): from 0x451 the
 * dissector took the 2-byte polls for NCP and marked them malformed. */
#define NCP_WDOG_SOCKET 0x4001
/* The reply buffer; replies fit one IPX packet (up to the largest: a
 * Token-Ring frame in memory, docs/links.md). */
#define NCP_MAX_PACKET IPX_MAX_PACKET
#define NCP_DIR_HANDLES 32	/* per connection */
#define NCP_SEARCHES 8		/* 0x3E search contexts per connection */
#define NCP_MAX_DEPTH 16	/* directory levels below a volume root */
#define NCP_NAME_LEN 12		/* 8.3 */
#define NCP_PATH_MAX 255
#define NCP_LONG_MAX 255	/* a name of the LONG (OS/2) name space */

/* A path inside a volume: canonical upper-case 8.3 components. */
struct ncp_path {
	int vol;
	int depth;
	bool dir_form;		/* the text ended in '\', '/', '.' or '..' */
	char comp[NCP_MAX_DEPTH][NCP_NAME_LEN + 1];
};

struct ncp_volume {
	char name[NCP_VOLNAME_MAX + 1];
	char dir[4096];
	int fd;			/* O_DIRECTORY descriptor of the root */
	bool ro;
};

struct ncp_file {
	bool used;
	int fd;
	uint16_t gen;		/* part of the handle: stale handles fail */
	uint8_t task;
	bool writable;
	bool readable;
	uint8_t share;		/* NCP_SHARE_*: what it opened and denies */
	dev_t dev;
	ino_t ino;
	char name[NCP_NAME_LEN + 1];
};

struct ncp_dirh {
	bool used;
	bool temp;		/* freed by end of job of its task */
	uint8_t task;
	struct ncp_path path;
};

struct ncp_search {
	bool used;
	struct ncp_path path;
};

/* A request waiting for a record lock (0x1A: that record; 0x1B: the
 * connection's logged set). */
struct ncp_pending {
	bool active;
	uint8_t seq, task, function;
	uint8_t flag;
	uint8_t handle[NCP_HANDLE_LEN];
	uint32_t start, len;
	uint64_t ticket;	/* when it began to wait: the queue order */
	struct ipx_timer timer;	/* its timeout */
	struct ncp_conn *conn;
	struct ncp_server *srv;
};

struct ncp_conn {
	bool used;
	uint16_t number;	/* 1..max */
	struct ipx_addr addr;
	/* The link its requests come in on when it is on that segment (not
	 * routed): replies go straight back out of it to its node, whatever
	 * network number it gave, without a route (RIP) looked up; NULL:
	 * routed. */
	struct ipx_link *link;
	uint8_t last_seq;
	uint8_t last_task;
	bool busy;		/* the request last_seq is still pending */
	bool fresh;		/* created, no request yet: the cached reply
				 * is the create's */
	uint8_t *reply;		/* the last reply (NCP_MAX_PACKET) */
	size_t reply_len;
	ipx_time last_heard;
	ipx_time next_wdog;	/* 0: not polling yet */
	unsigned wdog_left;	/* polls left before clearing */
	bool logged_in;
	uint32_t user_id;
	char user[48];
	ipx_time login_time;
	uint16_t bufsize;
	struct ncp_file *files;		/* max_handles */
	unsigned nfiles;
	struct ncp_dirh dirh[NCP_DIR_HANDLES];
	struct ncp_search search[NCP_SEARCHES];
	unsigned next_search;
	unsigned nlocks;
	struct ncp_pending pending;
	/* fn_login.c: the key of 0x17 0x17, good for one keyed call. */
	uint8_t login_key[8];
	bool key_issued;
	/* fn_msg.c: the broadcast message held for it (0x15). */
	char msg[256];
	bool msg_held;
	bool msg_off;		/* 0x15 02: broadcasts disabled */
	struct ncp_burst_conn *burst;	/* 0x65 made it (fn_burst.c) */
};

struct ncp_lock {
	struct ncp_conn *conn;
	uint8_t task;
	dev_t dev;
	ino_t ino;
	uint8_t handle[NCP_HANDLE_LEN];
	uint32_t start, len;
	bool locked;		/* false: only logged */
	bool shared;
};

struct ncp_user {
	char name[48];
	uint8_t hash[16];	/* NetWare's password hash (ncp_crypt.h) */
	bool has_password;	/* false: no login at all (SUPERVISOR unset) */
	uint32_t id;
	unsigned line;		/* of the users file; 0: built in */
};

/* A trustee assignment (rights.c): a user's rights in a directory. */
struct ncp_trustee {
	struct ncp_path path;	/* the directory (dir_form unused) */
	char user[48];		/* upper case, a bindery user */
	uint16_t rights;	/* NCP_TR_* */
};

/* A file server heard by SAP (fn_bindery.c), for the bindery scans. */
#define NCP_SEEN_MAX 64
struct ncp_seen {
	char name[48];
	struct ipx_addr addr;
	ipx_time heard;
};

struct ncp_server {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct ipx_socket *sock;
	struct ipx_socket *wsock;	/* watchdog: NCP_WDOG_SOCKET */
	struct ipx_sap *sap;
	bool own_sap;
	char name[48];
	struct ncp_volume vols[NCP_MAX_VOLUMES];
	size_t nvols;
	struct ncp_conn *conns;
	unsigned max_conns, in_use, peak;
	unsigned max_handles, max_locks;
	ipx_time wdog_delay, wdog_interval;
	unsigned wdog_count;
	unsigned max_buffer;
	bool max_buffer_set;	/* given: it caps 0x61 too */
	struct ipx_timer tick;
	struct ncp_lock *locks;
	size_t nlocks, caplocks;
	uint64_t next_ticket;		/* of the next lock request to wait */
	struct ncp_user *users;
	size_t nusers;
	char *users_file;	/* copy of --users: password changes go there */
	unsigned clear_lines;	/* its "NAME PASSWORD" lines (hashed on load) */
	bool allow_clear;	/* 0x17 0x14 taken (opts.allow_clear_text) */
	bool no_key;		/* opts.no_login_key */
	struct ncp_trustee *trustees;	/* rights.c */
	size_t ntrustees;
	char *rights_file;		/* NULL: no store, all rights */
	struct ncp_seen seen[NCP_SEEN_MAX];
	size_t nseen;
	const struct ipx_header *rx;	/* the packet being handled, or NULL */
	bool name_taken;		/* another server answered our name */
	struct ipx_addr taken_by;
	bool no_burst;
	unsigned burst_max;
	uint16_t burst_gen;		/* in the burst IDs it hands out */
	struct ncp_server_stats stats;
	struct ncp_ns_bases *ns_bases;	/* fn_ns.c: directory bases given out */
	bool dos_only;			/* no name-space calls (0x57) */
};

/* What a handler is given and fills. */
struct ncp_call {
	struct ncp_server *srv;
	struct ncp_conn *conn;
	struct ncp_req_hdr hdr;
	struct ncp_rd rd;	/* the data after the function byte */
	struct ncp_wr wr;	/* reply data after the 8-byte header */
	uint8_t cc;
	bool pending;		/* the handler parked the request */
};

/* ---- names.c: DOS names, wildcards and path resolution ---- */

/* True if a host name is visible as a DOS 8.3 name (any case). */
bool ncp_name_visible(const char *host);
/* Upper-case copy of a valid DOS name, with wildcards if 'wild'. Returns
 * 0, or a refusal (NCP_SRV_REF_*) + 1. */
int ncp_name_check(const char *in, size_t len, bool wild, char *out);
/* DOS-style match of an upper-case name against an upper-case pattern. */
bool ncp_wild_match(const char *pattern, const char *name);
bool ncp_has_wild(const char *name);
/*
 * Parse a request path (raw bytes) relative to directory handle 'dh'.
 * With 'last' non-NULL the last component is taken off into it (wildcards
 * allowed if 'wild') and the directory goes to *out. Returns a completion
 * code (0 = fine), counting refusals.
 */
uint8_t ncp_path_parse(struct ncp_call *c, uint8_t dh, const uint8_t *text,
		       size_t len, struct ncp_path *out, char *last,
		       bool wild);
/* Read a length-prefixed path from the request and parse it as above:
 * false with c->cc set (a short request counted as malformed). */
bool ncp_rd_path(struct ncp_call *c, uint8_t dh, struct ncp_path *out,
		 char *last, bool wild);
/* A file name (last, parsed into p) must not end in a separator, '.' or
 * '..' ("SYS:NEW\" names a directory): false with c->cc set to 0x9C
 * (refused_dir_as_file). An empty last passes (the caller decides). */
bool ncp_file_name_ok(struct ncp_call *c, const struct ncp_path *p,
		      const char *last);
/* dh + path naming an existing directory: a completion code. */
uint8_t ncp_path_resolve_dir(struct ncp_call *c, uint8_t dh, const uint8_t *t,
			     size_t len, struct ncp_path *out);
/* Open the directory of 'p' (walking from the volume root, no symlinks).
 * Returns an fd, or -1 with the completion code in *cc (refusal counted). */
int ncp_path_open_dir(struct ncp_call *c, const struct ncp_path *p,
		      uint8_t *cc);
/* Find 'dosname' (upper case) in directory 'dirfd': 0 with the host name
 * and lstat, 1 if absent, -1 a symlink or special file (refusal counted). */
int ncp_lookup(struct ncp_call *c, int dirfd, const char *dosname,
	       char *host, size_t hostcap, struct stat *st);
/* One visible entry of a directory listing. */
struct ncp_dirent {
	char name[NCP_NAME_LEN + 1];	/* upper case */
	char host[256];
	struct stat st;
	bool alias;			/* name is an alias (ns_alias.c) */
};
/* The visible entries of 'dirfd', sorted by DOS name. Caller frees. */
int ncp_list_dir(int dirfd, struct ncp_dirent **out, size_t *n);
/* The same for the directory of 'p' as connection c may see it: before
 * login the root of SYS lists LOGIN alone. */
int ncp_list_path(struct ncp_call *c, const struct ncp_path *p, int dirfd,
		  struct ncp_dirent **out, size_t *n);
/* A regular file or directory: 0; else -1 (refusal counted). */
int ncp_lookup_check(struct ncp_call *c, const struct stat *st);
/* What a connection not logged in may see (SYS:LOGIN and the way there). */
bool ncp_login_may_see(const struct ncp_path *p, const char *last,
		       bool wild);

/* ---- ns_alias.c: the LONG name space and DOS aliases ---- */
/* True if a host name is shown in the LONG name space. */
bool ncp_long_visible(const char *host);
/* The k-th (1..9) alias candidate of a host name. */
void ncp_alias_make(const char *host, unsigned k, char *out);
/* A LONG name in directory dirfd (exact, else any case: the smallest
 * host name): 0 with the entry, 1 if absent, -1 a link or special file
 * (counted). */
int ncp_lookup_long(struct ncp_call *c, int dirfd, const char *name,
		    struct ncp_dirent *out);
/* An alias in dirfd: 0 with host name and lstat, 1 if none. */
int ncp_lookup_alias(int dirfd, const char *dosname, char *host,
		     size_t hostcap, struct stat *st);
/* The DOS name (real or alias) of a host name in dirfd: 0, or 1. */
int ncp_dos_name_of(int dirfd, const char *host, char *out);

/* The DOS attributes of a host file. */
uint8_t ncp_attr_of(const struct stat *st);
/* A change on the volume of 'p' when it is read-only: the refusal. */
bool ncp_vol_ro(struct ncp_call *c, int vol);
/* "VOL:DIR\SUB" */
void ncp_path_format(const struct ncp_server *srv, const struct ncp_path *p,
		     char *out, size_t cap);

/* ---- dispatch.c ---- */
/* Answer c's request by its function number (unknown ones counted). */
void ncp_fn_dispatch(struct ncp_call *c);

/* ---- fn_*.c: the function handlers ---- */
/* The 0x12 / 0x16 15 reply of a volume (index). */
void ncp_fn_volume_info(struct ncp_call *c, int vol);
/* 0x16 0x2C Get Volume and Purge Information. */
void ncp_fn_volume_purge_info(struct ncp_call *c, int vol);
/* 0x17 0x37, 0x3C and 0x3D (fn_bindery.c); false for another one. */
bool ncp_fn_bindery(struct ncp_call *c, uint8_t sub);
/* The SAP response callback that keeps srv->seen (ctx: the server). */
void ncp_bindery_on_sap(const struct ipx_header *hdr,
			const struct ipx_sap_msg *msg, void *ctx);
/* 0x12..0x14, 0x17..0x19, 0x21, 0x61 */
void ncp_fn_info(struct ncp_call *c);
void ncp_fn_dir(struct ncp_call *c);	/* 0x16 */
void ncp_fn_search(struct ncp_call *c);	/* 0x3E, 0x3F, 0x40 */
void ncp_fn_file(struct ncp_call *c);	/* 0x3D, 0x41..0x4D, 0x54 */
void ncp_fn_lock(struct ncp_call *c);	/* 0x1A..0x1F */
void ncp_fn_ns(struct ncp_call *c);	/* 0x57 (fn_ns.c) */
void ncp_ns_free(struct ncp_server *srv);
/* fn_file.c, for fn_ns.c's opens and deletes. */
struct ncp_file *ncp_file_slot(struct ncp_call *c);
bool ncp_share_conflict(const struct ncp_server *srv, dev_t dev, ino_t ino,
			uint8_t mode);
bool ncp_file_in_use(const struct ncp_server *srv, dev_t dev, ino_t ino);
/* The period machine's disk (host.h) for bytes of a file the server read
 * or wrote: the reply waits for what is not cached. Nothing without a
 * machine. */
void ncp_disk(struct ncp_server *srv, dev_t dev, ino_t ino, uint64_t off,
	      uint64_t len, bool write);
/* A request changed a directory (a create, an erase): on a period
 * machine, its server software's synchronous directory writes, which the
 * reply waits for (ipx_host_disk_sync); nothing otherwise. */
void ncp_disk_dir(struct ncp_server *srv);
/* The 28-byte file entry of 0x40/0x41 replies: name (14), attributes,
 * exec type, size BE4, creation, access and update dates, update time. */
void ncp_put_file_entry(struct ncp_wr *w, const char *name,
			const struct stat *st);

/* ---- conn.c: the connection table, handles, counted answers ---- */
/* The connection of a number (1..max) or of an address; NULL: none. */
struct ncp_conn *ncp_conn_by_number(struct ncp_server *srv, uint16_t n);
struct ncp_conn *ncp_conn_by_addr(struct ncp_server *srv,
				  const struct ipx_addr *a);
/* A fresh connection for address 'a' (its old one, if any, freed):
 * 0 with *out set, -1 when the table is full or memory is short. */
int ncp_conn_new(struct ncp_server *srv, const struct ipx_addr *a,
		 struct ncp_conn **out);
/* Release everything a connection holds and free its slot. */
void ncp_conn_free(struct ncp_server *srv, struct ncp_conn *conn);
/* Free what a connection (task >= 0: only that task's) holds. */
void ncp_conn_release(struct ncp_server *srv, struct ncp_conn *conn, int task);
/* The open file of a 6-byte handle, or NULL (a bad handle counted). */
struct ncp_file *ncp_file_of(struct ncp_call *c, const uint8_t *handle);
void ncp_handle_of(const struct ncp_conn *conn, const struct ncp_file *f,
		   uint8_t *out);
/* Count a refusal and return its completion code. */
uint8_t ncp_refuse(struct ncp_call *c, enum ncp_srv_refusal r, uint8_t cc);
/* Count a malformed request: completion FF. */
void ncp_malformed(struct ncp_call *c);
/* Count an unknown function (sub: an unknown subfunction of it):
 * completion FB. */
void ncp_unknown(struct ncp_call *c, bool sub);

/* ---- server.c ---- */
/* Send the reply of a parked request (locks.c, when it is decided). */
void ncp_finish_pending(struct ncp_server *srv, struct ncp_conn *conn,
			uint8_t cc);

/* The 2-byte signal [connection, sig] to the client's socket + 2 ('!':
 * a broadcast message is waiting). */
void ncp_send_notice(struct ncp_server *srv, struct ncp_conn *conn,
		     uint8_t sig);

/* Send to a connection at 'to' (its burst socket) as replies go. */
void ncp_send_to(struct ncp_server *srv, struct ncp_conn *conn,
		 const struct ipx_addr *to, const uint8_t *p, size_t len);

/* ---- fn_burst.c: packet burst ---- */
void ncp_fn_burst_connect(struct ncp_call *c);	/* 0x65 */
/* A 0x7777 packet on the NCP socket. */
void ncp_burst_packet(struct ncp_server *srv, const struct ipx_header *h,
		      const uint8_t *data, size_t len);
/* Free a connection's burst state (it is closing). */
void ncp_burst_free(struct ncp_server *srv, struct ncp_conn *conn);

/* ---- locks.c ---- */
/* Drop the locks of a connection (of one task if task >= 0). */
void ncp_locks_release(struct ncp_server *srv, struct ncp_conn *conn,
		       int task);
/* True if another connection's lock stops this read or write. */
bool ncp_locks_blocked(const struct ncp_server *srv,
		       const struct ncp_conn *conn, dev_t dev, ino_t ino,
		       uint32_t start, uint32_t len, bool write);
/* Drop the locks on one open file of a connection (it is being closed). */
void ncp_locks_close_file(struct ncp_server *srv, struct ncp_conn *conn,
			  const uint8_t *handle);

/* The timer callback of a waiting lock request (ctx: its ncp_pending). */
void ncp_locks_timeout(struct ipx_loop *loop, struct ipx_timer *t, void *ctx);

/* ---- bindery.c ---- */
int ncp_bindery_load(struct ncp_server *srv, const char *file, char *err,
		     size_t errlen);
const struct ncp_user *ncp_bindery_find(const struct ncp_server *srv,
					const char *name);
const struct ncp_user *ncp_bindery_by_id(const struct ncp_server *srv,
					 uint32_t id);
/* Hash an (upper-cased) password into u with its ID. */
void ncp_user_set_password(struct ncp_user *u, const char *pw);
/* Write the users of a file (line != 0) back, hashed, atomically. */
int ncp_bindery_save(const struct ncp_server *srv, const char *file,
		     char *err, size_t errlen);

/* ---- fn_login.c: 0x17 0x14, 0x17, 0x18, 0x4A, 0x4B; false: another ---- */
bool ncp_fn_login(struct ncp_call *c, uint8_t sub);
/* ---- fn_msg.c: 0x15, and the status bit of a held message ---- */
void ncp_fn_msg(struct ncp_call *c);

/* ---- rights.c: trustee rights (docs/ncp.md "Trustee rights") ---- */
/* NetWare 3.x rights bits (a word; 0x16 0x03 answers the low byte). */
enum {
	NCP_TR_READ = 0x01, NCP_TR_WRITE = 0x02, NCP_TR_CREATE = 0x08,
	NCP_TR_ERASE = 0x10, NCP_TR_ACCESS = 0x20, NCP_TR_SCAN = 0x40,
	NCP_TR_MODIFY = 0x80, NCP_TR_SUPER = 0x100, NCP_TR_ALL = 0x1FB,
};
/* What a request does in a directory; each needs one right and has its
 * refusal code. */
enum ncp_op {
	NCP_OP_READ,		/* open for reading: R, 93 */
	NCP_OP_WRITE,		/* open for writing: W, 94 */
	NCP_OP_CREATE,		/* create a file: C, 84 */
	NCP_OP_OVERWRITE,	/* create over (truncate) a file: E, 85 */
	NCP_OP_ERASE,		/* erase files: E, 8A */
	NCP_OP_RENAME,		/* rename from here: M, 8B */
	NCP_OP_MOVE_INTO,	/* rename into here: C, 8B */
	NCP_OP_MODIFY,		/* attributes: M, 8C */
	NCP_OP_SCAN,		/* search, list: F, 89 */
	NCP_OP_MKDIR,		/* create a subdirectory: C, 84 */
	NCP_OP_RMDIR,		/* delete this directory: E, 8A */
	NCP_OP_TRUSTEE,		/* change its trustees: A, 8C */
};
/* The same directory (volume and components). */
bool ncp_path_same(const struct ncp_path *a, const struct ncp_path *b);
/* Load --rights (a missing file is an empty store). */
int ncp_rights_load(struct ncp_server *srv, const char *file, char *err,
		    size_t errlen);
void ncp_rights_free(struct ncp_server *srv);
/* The effective rights (NCP_TR_*) of c's connection in directory 'dir'. */
uint16_t ncp_rights_of(const struct ncp_call *c, const struct ncp_path *dir);
/* The one-byte rights of 0x16 0x03, 0x16 0x12 and the scans. */
uint8_t ncp_rights_byte(const struct ncp_call *c, const struct ncp_path *dir);
/*
 * The check every request that touches files makes (the 0x57 name-space
 * calls too): 0 if c's user holds the right 'op' needs in 'dir' (for a
 * file: the directory it is in; for rmdir: the directory itself), else
 * the completion code, the refusal counted. Always 0 without a store.
 */
uint8_t ncp_rights_check(struct ncp_call *c, const struct ncp_path *dir,
			 enum ncp_op op);
/* The rights an open needs in its directory 'p' (fn_file.c; 0x57 too):
 * Create for a new file, Erase and Write to truncate one, else Read
 * and/or Write as it opens. 0 or the refusal, counted. */
uint8_t ncp_open_rights(struct ncp_call *c, const struct ncp_path *p,
			bool wr, bool create, bool trunc, uint8_t share);
/* A directory renamed (to != NULL) or deleted: its assignments and those
 * below it follow or go (and the store is written). */
void ncp_rights_moved(struct ncp_server *srv, const struct ncp_path *from,
		      const struct ncp_path *to);
/* 0x16 0x0C, 0x0D, 0x0E, 0x2A (fn_rights.c). */
void ncp_fn_trustee(struct ncp_call *c, uint8_t sub);
/* Set (rights >= 0) or remove (rights < 0) a user's assignment in 'dir'
 * and write the store: 0, 0xFE (no such trustee to remove) or 0xA1 (the
 * store could not be written: nothing changed). */
uint8_t ncp_rights_set(struct ncp_server *srv, const struct ncp_path *dir,
		       const char *user, int rights);

#endif
