/*
 * ncp_client.h - an NCP client on an IPX node: find a file server with
 * SAP, create the connection, log in, negotiate the buffer size, and the
 * file calls a DOS workstation makes (docs/ncp.md).
 *
 * Every call is synchronous: it runs the node's loop until the reply
 * comes, one request outstanding, as NetWare shells and ncpfs do. A lost
 * request or reply is sent again with the same sequence number after a
 * timeout that starts at 100 ms and doubles up to 6 s, at most IPX RETRY
 * COUNT times (SHELL.CFG); a 0x9999 answer ("still working") resets the
 * count and waits 6 s. The watchdog polls of the server (to our socket +
 * 1) are answered.
 *
 * Errors are ints: 0 success; 1..255 the server's completion code
 * (enum ncp_cc); NCP_E_* below; negative values are ipx_err.
 * ncp_strerror names every one.
 */
#ifndef IPXLAB_NCP_CLIENT_H
#define IPXLAB_NCP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/clock.h"
#include "ipxlab/ncp.h"
#include "ipxlab/ncp_burst.h"
#include "ipxlab/node.h"
#include "ipxlab/sap.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
	/* 0x100 | connection status bits: the server says the connection
	 * is bad (0x101) or it is going down (0x110). */
	NCP_E_STATUS = 0x100,
	NCP_E_TIMEOUT = 0x200,	/* no reply after every retransmission */
	NCP_E_NOSERVER,		/* no server of that name answered SAP */
	NCP_E_NOTCONN,		/* no connection made yet */
	NCP_E_BADREPLY,		/* a reply too short for its call */
	NCP_E_INTERRUPTED,	/* the loop was stopped (a signal) */
	NCP_E_LOCAL,		/* a local file could not be read or written */
	NCP_E_NOT83,		/* a name in a path is not a DOS 8.3 name */
	NCP_E_CANCELLED,	/* ncp_client_cancel() ended the wait */
	NCP_E_NOKEY,		/* no login key, and clear text not allowed */
	NCP_E_NOTLOGGED,	/* a user logged in nowhere (a message to) */
};

/* The message for any error a client call returns. */
const char *ncp_strerror(int err);

/* Replies the client discards. */
#define NCP_CLI_DROPS(X)                                                     \
	X(SHORT, "short", "shorter than an NCP reply header")                \
	X(BAD_TYPE, "bad_type", "not a 3333 or 9999 reply")                  \
	X(NOT_SERVER, "not_server", "from another address than the server") \
	X(STALE, "stale", "sequence or connection of no request outstanding") \
	X(WDOG_BAD, "watchdog_bad", "a packet on the watchdog socket that is no poll")

#define NCP_CLI_DROP_ENUM_(id, name, desc) NCP_CLI_DROP_##id,
enum ncp_cli_drop { NCP_CLI_DROPS(NCP_CLI_DROP_ENUM_) NCP_CLI_DROP_COUNT };
#undef NCP_CLI_DROP_ENUM_

const char *ncp_cli_drop_name(enum ncp_cli_drop d);

struct ncp_client_opts {
	ipx_time rto;		/* first retransmission timeout; 0 = 100 ms */
	ipx_time rto_max;	/* cap of the doubling; 0 = 6 s */
	ipx_time busy_wait;	/* after 0x9999; 0 = 6 s */
	int retries;		/* -1 = IPX RETRY COUNT of the node's config */
	uint8_t task;		/* 0 = 1 */
	/* Told once when a request has had no answer for stall_after (0 =
	 * 2 s) while retransmitting (answering false), and once when an
	 * answer then comes (true): "server not responding", as NetWare
	 * shells said while they kept trying. */
	void (*on_stall)(void *ctx, bool answering);
	void *stall_ctx;
	ipx_time stall_after;
	/* Packet burst (burst.c): ncp_connect asks for it (0x65) unless
	 * no_burst; then ncp_read and ncp_write of more than one buffer
	 * move bursts of up to burst_window fragments (0 = 32), and the
	 * server is asked to leave burst_delay between the fragments it
	 * sends (0 = none; sent in 100 us units, at most 50 ms kept). */
	bool no_burst;
	unsigned burst_window;
	ipx_time burst_delay;
	/* ncp_login: when the server refuses the login key (0xFB or 0xFF
	 * to 0x17 0x17), send the password in clear text (0x17 0x14);
	 * false: NCP_E_NOKEY. */
	bool allow_clear_text;
	/* Use the LONG (OS/2) name space when the server has it (asked at
	 * connect, 0x57 0x18): names may then be long. Not set, the DOS
	 * name space only, as a DOS workstation: 8.3 names (and a server's
	 * aliases for the others) through the older calls. */
	bool long_names;
};

struct ncp_client_stats {
	uint64_t requests, retransmits, busy, replies;
	uint64_t wdog_answered;
	uint64_t sap_queries;	/* sent by ncp_find_server */
	uint64_t stalls;	/* requests that went unanswered stall_after */
	uint64_t drops[NCP_CLI_DROP_COUNT];
	/* Packet burst: bursts done, fragments sent (resent: again, asked
	 * by the server's missing-fragment list or after a timeout),
	 * fragments received, missing-fragment lists sent, timeouts, and
	 * the burst packets discarded, by reason. */
	uint64_t bursts, burst_frags_sent, burst_frags_resent;
	uint64_t burst_frags_received, burst_missing_sent, burst_timeouts;
	uint64_t burst_drops[NCP_BURST_DROP_COUNT];
};

struct ncp_client;

/* A client on 'node' (opens a socket and the one after it, for the
 * watchdog). IPX_OK or an ipx_err. */
int ncp_client_new(struct ipx_node *node, const struct ncp_client_opts *opts,
		   struct ncp_client **out);
/* Destroys the connection (0x5555, one try) if there is one. */
void ncp_client_free(struct ncp_client *cl);
/* Free without destroying the connection, so without running the loop
 * (for a caller inside a callback); the server's watchdog clears it. */
void ncp_client_abandon(struct ncp_client *cl);
const struct ncp_client_stats *ncp_client_stats(const struct ncp_client *cl);

/*
 * Find a file server with SAP on the agent 'sap': by name (a general
 * query, type 4), or the nearest (name NULL: a nearest query, then a
 * general one in turn) within 'timeout', the query sent again every
 * 500 ms. Fills addr (socket 0x451) and, when not NULL, found (48).
 */
int ncp_find_server(struct ncp_client *cl, struct ipx_sap *sap,
		    const char *name, ipx_time timeout, struct ipx_addr *addr,
		    char *found);

/* Create the service connection (0x1111) and allocate a directory handle
 * on SYS:LOGIN; with opts.long_names, ask which name spaces SYS has (0x57
 * 0x18): with the LONG (OS/2) one the file calls below go through it
 * (0x57), so names may be long, have spaces and any case. */
int ncp_connect(struct ncp_client *cl, const struct ipx_addr *server);
/* True if this connection's file calls use the LONG name space. */
bool ncp_long_names(const struct ncp_client *cl);
uint16_t ncp_connection(const struct ncp_client *cl);
/* Log in (the password upper-cased, as NetWare clients send it): keyed
 * (0x17 0x17, the user's ID by 0x17 0x35, 0x17 0x18), or in clear text
 * (0x17 0x14) if the server refuses the key and opts.allow_clear_text;
 * then the directory handle is SYS:. A wrong password is
 * NCP_CC_BAD_PASSWORD (the server answers a keyed one 0xFF), an unknown
 * user NCP_CC_NO_OBJECT. */
int ncp_login(struct ncp_client *cl, const char *user, const char *password);
/* Keyed change of password (0x17 0x17, 0x35, 0x4B). */
int ncp_change_password(struct ncp_client *cl, const char *user,
			const char *old_pw, const char *new_pw);
/* The connections logged in as 'user' (0x17 0x15): *n of them in out;
 * an unknown user is NCP_CC_NO_OBJECT. */
int ncp_user_connections(struct ncp_client *cl, const char *user,
			 uint16_t *out, size_t cap, size_t *n);
#define NCP_MSG_MAX 58	/* what NetWare 3.x carries in a message */
/* Send a broadcast message (0x15 0x0A; 0x15 0x00 where the server has
 * not that) to n connections; status[i] is the server's answer for
 * each: 0 held for it, 0xFC it holds one already, 0xFD no such
 * connection, 0xFF it refuses messages. */
int ncp_send_message(struct ncp_client *cl, const uint16_t *conns, size_t n,
		     const char *msg, uint8_t *status);
/* The message held for this connection ("" if none: 0x15 0x0B, or
 * 0x15 0x01). */
int ncp_get_message(struct ncp_client *cl, char *out, size_t cap);
/* True when the last reply said a message is waiting (status 0x40). */
bool ncp_message_waiting(const struct ncp_client *cl);
int ncp_logout(struct ncp_client *cl);
/* 0x61 (big packets), falling back to 0x21; the size is then used. */
int ncp_negotiate(struct ncp_client *cl, uint16_t want);
uint16_t ncp_bufsize(const struct ncp_client *cl);
/* True once the server granted packet burst (0x65 at ncp_connect); false
 * with no_burst or a server that answered 0xFB: one request at a time. */
bool ncp_burst_active(const struct ncp_client *cl);
/* The IPX packet size (header included) of a full burst fragment; 0
 * without burst. */
size_t ncp_burst_packet_size(const struct ncp_client *cl);
/* Destroy the connection (0x5555). */
int ncp_disconnect(struct ncp_client *cl);
/* From a callback while a call waits (a server found again elsewhere):
 * that call returns NCP_E_CANCELLED at once. */
void ncp_client_cancel(struct ncp_client *cl);
/* The server's address (of ncp_connect). */
const struct ipx_addr *ncp_server_addr(const struct ncp_client *cl);

/*
 * One raw request: function, data after the function byte; the reply
 * data (after the 8-byte header) into reply/cap with its length. For
 * tests and callers of functions not wrapped below.
 */
int ncp_request(struct ncp_client *cl, uint8_t function, const void *data,
		size_t len, uint8_t *reply, size_t cap, size_t *rlen);
/* Hand a received packet to the client as its socket would (fuzzing). */
void ncp_client_input(struct ncp_client *cl, const struct ipx_addr *from,
		      const uint8_t *data, size_t len);

/* ---- files (paths "VOL:DIR\NAME", or relative to the handle: SYS:) ---- */

/* The longest name of the LONG (OS/2) name space. */
#define NCP_LONG_NAME 255

struct ncp_entry {
	char name[NCP_LONG_NAME + 1];	/* 8.3, or a long name (LONG) */
	uint8_t attr;		/* NCP_ATTR_* */
	uint32_t size;
	uint16_t date, time;	/* DOS, of the last update */
	uint16_t seq;		/* the search number (0x3F) */
};

/* Parse a 28-byte file or directory entry of 0x3F (dir chooses the
 * layout by the attribute byte). -1 if short. */
int ncp_parse_entry(const uint8_t *p, size_t len, struct ncp_entry *out);

enum ncp_open_mode {
	NCP_OPEN_READ,		/* 0x4C read */
	NCP_OPEN_WRITE,		/* 0x4C read/write */
	NCP_OPEN_CREATE,	/* 0x43: create or truncate */
	NCP_OPEN_CREATE_NEW,	/* 0x4D: fail if it exists */
	/* 0x54 create or truncate, read/write denying write: refused with
	 * 0x80 (file in use) while another handle writes the file, and no
	 * other handle can open it for writing until it is closed (a put).
	 * A server without 0x54 (0xFB) gets 0x43. */
	NCP_OPEN_CREATE_DENY_WRITE,
};

struct ncp_fh {
	uint8_t h[NCP_HANDLE_LEN];
	uint32_t size;		/* when opened */
};

int ncp_open(struct ncp_client *cl, const char *path, enum ncp_open_mode m,
	     struct ncp_fh *fh);
int ncp_close(struct ncp_client *cl, const struct ncp_fh *fh);
/* Read up to n bytes at off (several requests, aligned to the buffer
 * size); *got < n only at the end of the file. */
int ncp_read(struct ncp_client *cl, const struct ncp_fh *fh, uint32_t off,
	     void *buf, size_t n, size_t *got);
int ncp_write(struct ncp_client *cl, const struct ncp_fh *fh, uint32_t off,
	      const void *buf, size_t n);
int ncp_commit(struct ncp_client *cl, const struct ncp_fh *fh);
int ncp_file_size(struct ncp_client *cl, const struct ncp_fh *fh,
		  uint32_t *size);
/* Erase the files matching (wildcards in the last component). */
int ncp_erase(struct ncp_client *cl, const char *path);
int ncp_rename(struct ncp_client *cl, const char *from, const char *to);
int ncp_mkdir(struct ncp_client *cl, const char *path);
int ncp_rmdir(struct ncp_client *cl, const char *path);
/* Set the date and time of the last update (DOS, local) of a file open
 * for writing (0x4B). */
int ncp_set_stamp(struct ncp_client *cl, const struct ncp_fh *fh,
		  uint16_t date, uint16_t time);
/* Rename directory 'path' to 'name' in the same parent (0x16 0x0F). */
int ncp_rename_dir(struct ncp_client *cl, const char *path, const char *name);
/* Set a file's attributes (0x46; NCP_ATTR_READ_ONLY the one that shows). */
int ncp_set_attributes(struct ncp_client *cl, const char *path, uint8_t attr);
/* Every entry of directory 'dir' matching 'pattern' (NULL: all), files
 * and subdirectories, in order; cb returning nonzero stops. */
int ncp_list(struct ncp_client *cl, const char *dir, const char *pattern,
	     int (*cb)(const struct ncp_entry *e, void *ctx), void *ctx);
/* The entry of one path. */
int ncp_stat(struct ncp_client *cl, const char *path, struct ncp_entry *out);
/* 0 if every name of the path (after "VOL:", between '\' or '/') is a DOS
 * 8.3 name, wildcards counted as characters ("." and ".." too), else
 * NCP_E_NOT83: a server answers such a name with BAD_PATH or BAD_NAME,
 * which does not say why. */
int ncp_check_path(const char *path);
/* ncp_check_path, unless the connection uses long names: then 0 for any
 * path whose names are at most 255 bytes. */
int ncp_check_path_on(const struct ncp_client *cl, const char *path);
/* The last name of a path: after the last '\\', '/' or "VOL:" ("" if
 * the path ends with one). */
const char *ncp_path_name(const char *path);
/* The path split before its last name: dir (at most cap - 1 bytes, cut
 * beyond) keeps the separator or "VOL:"; *name points into path. */
void ncp_path_split(const char *path, char *dir, size_t cap,
		    const char **name);

struct ncp_server_info {
	char name[49];
	uint8_t major, minor;
	uint16_t max_conns, conns, volumes, peak;
};
int ncp_get_server_info(struct ncp_client *cl, struct ncp_server_info *out);
/* The user of this connection ("" before login) and the station. */
int ncp_whoami(struct ncp_client *cl, char *user, size_t cap,
	       uint8_t *station);
/* Record locks (0x1A, 0x1E) for tests and programs that share files. */
int ncp_lock_record(struct ncp_client *cl, const struct ncp_fh *fh,
		    uint8_t flag, uint32_t start, uint32_t len,
		    uint16_t timeout_ticks);
int ncp_clear_record(struct ncp_client *cl, const struct ncp_fh *fh,
		     uint32_t start, uint32_t len);

/* ---- trustee rights (client_rights.c; NetWare 3.x rights word) ---- */
enum {
	NCP_TRUSTEE_READ = 0x01, NCP_TRUSTEE_WRITE = 0x02,
	NCP_TRUSTEE_CREATE = 0x08, NCP_TRUSTEE_ERASE = 0x10,
	NCP_TRUSTEE_ACCESS = 0x20, NCP_TRUSTEE_SCAN = 0x40,
	NCP_TRUSTEE_MODIFY = 0x80, NCP_TRUSTEE_SUPER = 0x100,
};
struct ncp_trustee_entry {
	uint32_t id;		/* bindery object */
	uint16_t rights;	/* NCP_TRUSTEE_* (0x0C gives the low byte) */
};
/* "SRWCEMFA" letters to a rights word (any order and case, "-" none):
 * 0, or -1 for a letter that is not one. */
int ncp_rights_parse(const char *text, uint16_t *out);
/* A rights word as NetWare's RIGHTS shows it: "[SRWCEMFA]" with a space
 * for each right not held ("[ RWCE F ]"); cap at least 11. */
void ncp_rights_format(uint16_t rights, char *out, size_t cap);
/* This connection's effective rights in a directory or file (0x16 0x2A). */
int ncp_effective_rights(struct ncp_client *cl, const char *path,
			 uint16_t *rights);
/* The trustees of a directory (0x16 0x0C, five at a time); cb returning
 * nonzero stops. 0 also when there are none. */
int ncp_scan_trustees(struct ncp_client *cl, const char *path,
		      int (*cb)(const struct ncp_trustee_entry *e, void *ctx),
		      void *ctx);
/* Give object 'id' these rights in directory 'path' (0x16 0x0D; 0x16
 * 0x27 when Supervisory is among them), replacing what it had there. */
int ncp_add_trustee(struct ncp_client *cl, const char *path, uint32_t id,
		    uint16_t rights);
/* Take object 'id' off the trustees of 'path' (0x16 0x0E). */
int ncp_delete_trustee(struct ncp_client *cl, const char *path, uint32_t id);
/* A user's object ID by name, and a user's name by ID (0x17 0x37). */
int ncp_user_id(struct ncp_client *cl, const char *name, uint32_t *id);
int ncp_user_name(struct ncp_client *cl, uint32_t id, char *name,
		  size_t cap);

#ifdef __cplusplus
}
#endif

#endif
