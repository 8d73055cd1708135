/*
 * ncp_server.h - a NetWare file server on an IPX node: NCP on socket 0x451
 * serving host directories as volumes, advertised with SAP as type 0x0004
 * (docs/ncp.md: the functions, the name mapping, the limits).
 *
 * One event loop does everything: a request is parsed, done on the host
 * file system (a write has been write()n before its reply leaves) and
 * answered at once, except a record lock that has to wait, which stays
 * pending (repeats of it are answered 0x9999) until it is granted or
 * times out. Paths never leave a volume's directory: they are walked
 * component by component from the volume's directory descriptor with
 * O_NOFOLLOW, and every refusal is counted by name.
 */
#ifndef IPXLAB_NCP_SERVER_H
#define IPXLAB_NCP_SERVER_H

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

#define NCP_MAX_VOLUMES 16
#define NCP_VOLNAME_MAX 15

/* Packets the server discards without an answer. */
#define NCP_SRV_DROPS(X)                                                     \
	X(SHORT, "short", "shorter than an NCP request header")              \
	X(BAD_TYPE, "bad_type", "request type not 1111, 2222 or 5555")       \
	X(BAD_PACKET_TYPE, "bad_packet_type", "IPX packet type not 17 (or 0)") \
	X(BUSY_OTHER, "busy_new_request", "a new request while one is still pending") \
	X(WDOG_BAD, "watchdog_bad", "a 2-byte packet that is not a watchdog answer") \
	X(TX, "tx_error", "a reply the node would not send")

/* Requests refused for safety or limits, each with a completion code. */
#define NCP_SRV_REFUSALS(X)                                                  \
	X(ABOVE_ROOT, "path_above_root", "'..' above the volume root (9C)")   \
	X(NO_VOLUME, "no_such_volume", "a volume prefix the server does not have (98)") \
	X(LOGIN_ONLY, "before_login", "outside SYS:LOGIN before login (9C)")  \
	X(OVERLONG, "path_too_long", "too deep or too long a path (9C)")      \
	X(BAD_BYTES, "bad_name_bytes", "bytes that make no DOS 8.3 name (9E/9C)") \
	X(WILDCARD, "wildcard_refused", "a wildcard where a single name is needed (9E)") \
	X(SYMLINK, "symlink", "a symbolic link or special file on the path (9C/FF)") \
	X(READ_ONLY, "read_only_volume", "a change on a read-only volume")    \
	X(HANDLES, "handle_limit", "file handles per connection used up (81)") \
	X(DIR_HANDLES, "dir_handle_limit", "directory handles used up (9D)") \
	X(LOCKS, "lock_limit", "record locks per connection used up (96)")  \
	X(BAD_HANDLE, "bad_file_handle", "a file handle not of this connection (88)") \
	X(BAD_DIR_HANDLE, "bad_dir_handle", "a directory handle not in use (9B)") \
	X(DIR_AS_FILE, "dir_as_file", "a file name ending in '\\', '/', '.' or '..' (9C)") \
	X(LOGIN_DIR, "login_dir", "SYS:LOGIN deleted (9F) or renamed (8B)") \
	X(SHARE, "share_conflict", "an open another handle's open mode denies, or whose deny another handle's open breaks (80)") \
	X(MALFORMED, "malformed", "request data shorter than the function needs (FF)") \
	X(CLEAR_TEXT, "clear_text_login", "a clear-text login while they are refused (D6)") \
	X(NO_KEY, "no_login_key", "a keyed login or change of password with no key issued (FF)") \
	X(NO_READ_RIGHT, "no_read_right", "an open for reading without the Read right (93)") \
	X(NO_WRITE_RIGHT, "no_write_right", "an open for writing without the Write right (94)") \
	X(NO_CREATE_RIGHT, "no_create_right", "a create, mkdir or move in without the Create right (84/8B)") \
	X(NO_ERASE_RIGHT, "no_erase_right", "an erase, rmdir or overwrite without the Erase right (8A/85)") \
	X(NO_MODIFY_RIGHT, "no_modify_right", "a rename or attribute change without the Modify right (8B/8C)") \
	X(NO_SCAN_RIGHT, "no_scan_right", "a directory search without the File Scan right (89)") \
	X(NO_ACCESS_RIGHT, "no_access_control_right", "a trustee change without the Access Control right (8C)") \
	X(NAME_SPACE, "bad_name_space", "a name space not loaded, or a name not of the name space asked (BF/9E)") \
	X(BAD_DIR_BASE, "bad_dir_base", "a directory base not given out, or gone (9B)")

#define NCP_SRV_DROP_ENUM_(id, name, desc) NCP_SRV_DROP_##id,
enum ncp_srv_drop { NCP_SRV_DROPS(NCP_SRV_DROP_ENUM_) NCP_SRV_DROP_COUNT };
#undef NCP_SRV_DROP_ENUM_
#define NCP_SRV_REF_ENUM_(id, name, desc) NCP_SRV_REF_##id,
enum ncp_srv_refusal {
	NCP_SRV_REFUSALS(NCP_SRV_REF_ENUM_) NCP_SRV_REF_COUNT
};
#undef NCP_SRV_REF_ENUM_

const char *ncp_srv_drop_name(enum ncp_srv_drop d);
const char *ncp_srv_refusal_name(enum ncp_srv_refusal r);

struct ncp_volume_spec {
	char name[NCP_VOLNAME_MAX + 1];	/* upper case, DOS characters */
	char dir[4096];			/* host directory */
	bool read_only;
};

/* Parse "NAME=DIR[,ro]" (the --volume option). 0, or -1 with err set. */
int ncp_volume_spec_parse(const char *text, struct ncp_volume_spec *out,
			  char *err, size_t errlen);

struct ncp_server_opts {
	const char *name;		/* server name, 1..47 characters */
	struct ncp_volume_spec volumes[NCP_MAX_VOLUMES];
	size_t nvolumes;		/* SYS must be one */
	const char *users_file;		/* "NAME ID HASH" lines, or NULL */
	/* Take clear-text logins (0x17 0x14); false: refused with 0xD6, as
	 * NetWare 3.x does by default (ALLOW UNENCRYPTED PASSWORDS OFF). */
	bool allow_clear_text;
	/* Answer 0x17 0x17 with 0xFB, as a server without encrypted login
	 * (mars_nwe's password scheme 9): for trying clients' fallback. */
	bool no_login_key;
	/* Trustee rights ("PATH USER RIGHTS" lines, docs/ncp.md): given, the
	 * rights are enforced and changes are written back to it (it need
	 * not exist yet); NULL: every logged-in user has all rights. */
	const char *rights_file;
	unsigned max_connections;	/* 0 = 250 */
	unsigned max_handles;		/* per connection; 0 = 64 */
	unsigned max_locks;		/* per connection; 0 = 64 */
	/* Watchdog (0 = NetWare's 296 s, 59.3 s, 10 polls). */
	ipx_time wdog_delay, wdog_interval;
	unsigned wdog_count;
	/* The largest buffer size a negotiation grants: set, it caps both
	 * the 0x21 and the 0x61 answers (512 for a server whose clients sit
	 * behind a bridge that carries 576-byte IPX packets); 0 = 1024 for
	 * 0x21 and what the link carries for 0x61. */
	unsigned max_buffer;
	struct ipx_sap *sap;		/* advertise here; NULL = own agent */
	/* With its own agent: before advertising, ask SAP for the file
	 * servers and wait up to this long for one already of this name
	 * (answering for itself); one found refuses the start
	 * (IPX_EINUSE). 0 = no check. */
	ipx_time name_check;
	/* DOS name space only: the name-space calls (0x57) answered 0xFB,
	 * as a NetWare server without the OS/2 name space or mars_nwe
	 * without WITH_NAME_SPACE_CALLS; names that are not 8.3 still have
	 * their DOS aliases. */
	bool dos_only;
	/* Packet burst (fn_burst.c): no_burst answers 0x65 with 0xFB and
	 * drops 0x7777 packets (as mars_nwe built without burst mode);
	 * burst_max is the most data of one burst each way (0 = 65,536). */
	bool no_burst;
	unsigned burst_max;
};

struct ncp_server_stats {
	uint64_t requests;		/* 2222 received (new, not repeats) */
	uint64_t repeats;		/* answered from the cached reply */
	uint64_t busy;			/* 0x9999 sent */
	uint64_t bad_conn;		/* answered with status 01 */
	uint64_t created, destroyed, full;	/* 1111 ok / 5555 / 1111 F9 */
	uint64_t wdog_sent, wdog_answers, wdog_cleared;
	uint64_t logins, bad_logins;
	uint64_t keys_issued, passwords_changed;
	uint64_t messages_sent, messages_refused, messages_fetched;
	uint64_t bytes_read, bytes_written;
	uint64_t fsyncs;
	uint64_t drops[NCP_SRV_DROP_COUNT];
	uint64_t refusals[NCP_SRV_REF_COUNT];
	uint64_t by_function[256];	/* requests per function number */
	uint64_t unknown[256];		/* answered FB, by function number */
	uint64_t unknown_sub[256];	/* FB for a sub-function, by function */
	/* Packet burst: 0x65 granted and refused, bursts executed, the
	 * fragments sent (resent: again, for a missing-fragment list or a
	 * repeated end of burst), received, the lists sent and received. */
	uint64_t burst_sessions, burst_refused, burst_reads, burst_writes;
	uint64_t burst_frags_sent, burst_frags_resent, burst_frags_received;
	uint64_t burst_missing_sent, burst_missing_received;
	uint64_t burst_drops[NCP_BURST_DROP_COUNT];
};

struct ncp_server;

/* Start the server on 'node' (socket 0x451, SAP type 4). IPX_OK, or an
 * error with a message in err. */
int ncp_server_new(struct ipx_node *node, const struct ncp_server_opts *opts,
		   struct ncp_server **out, char *err, size_t errlen);
/* Closes every connection and file; SAP: the server goes down. */
void ncp_server_free(struct ncp_server *srv);
const struct ncp_server_stats *ncp_server_stats(const struct ncp_server *srv);
/* `ipxlab server --passwd`: set 'user's password in the users file (made
 * if absent; the user added if new), every line written hashed. IPX_OK,
 * or an error with a message in err. */
int ncp_users_set_password(const char *file, const char *user,
			   const char *password, char *err, size_t errlen);
/* Connections in use now. */
unsigned ncp_server_connections(const struct ncp_server *srv);
/* Record locks held or logged now (all connections). */
size_t ncp_server_lock_count(const struct ncp_server *srv);
/* Open files now (all connections). */
size_t ncp_server_open_files(const struct ncp_server *srv);
/* The statistics as "name value" lines. */
void ncp_server_print_stats(const struct ncp_server *srv, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
