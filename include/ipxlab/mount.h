/*
 * mount.h - a NetWare volume as a Linux file system (FUSE, libfuse3):
 * `ipxlab mount` (docs/mount.md). A pool of NCP connections, one per
 * node, each used by one thread at a time; path calls take any free
 * connection, an open file stays on the connection that opened it.
 */
#ifndef IPXLAB_MOUNT_H
#define IPXLAB_MOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_loop;
struct ipx_node;

/* One node for one connection of the pool, opened by the caller (it
 * knows the links): node and loop to use, 'handle' given back to
 * close_node. 0 or nonzero (the caller has said why). */
struct ipx_mount_node {
	struct ipx_loop *loop;
	struct ipx_node *node;
	void *handle;
};

struct ipx_mount_opts {
	const char *volume;	/* "SYS" (a trailing ':' is allowed) */
	const char *mountpoint;
	const char *server;	/* NULL: the nearest */
	const char *user;	/* NULL: no login (SYS:LOGIN only) */
	const char *password;	/* "" for none */
	bool clear_text;	/* clear-text login if the server gives no key */
	unsigned conns;		/* connections in the pool; 0 = 4 */
	double retry_time;	/* seconds a request is retried; 0 = 10 */
	double find_timeout;	/* seconds to look for the server; 0 = 3 */
	double attr_timeout;	/* kernel attribute cache, seconds (0) */
	uint16_t bufsize;	/* 0 = 4096 */
	bool no_burst;		/* one request at a time, no packet burst */
	bool debug;		/* libfuse's -d */
	bool read_only;
	/* DOS 8.3 names only, even on a server with the LONG name space
	 * (whose long names then show as their 8.3 aliases). */
	bool dos_names;
	int (*open_node)(void *ctx, struct ipx_mount_node *out);
	void (*close_node)(void *ctx, struct ipx_mount_node *n);
	void *ctx;
};

/* True if this build has FUSE (libfuse3 was found at build time). */
bool ipx_mount_available(void);

/*
 * Connect the pool, mount, serve until unmounted (fusermount3 -u) or
 * SIGINT/SIGTERM/SIGHUP, unmount. Messages go to stderr. 0 after a clean
 * unmount, 1 on a failure (said), 2 on bad options.
 */
int ipx_mount_run(const struct ipx_mount_opts *o);

/*
 * The server's name for a path of the mount ("/DIR/NAME" into
 * "VOL:DIR\NAME"): the one place a name space is chosen. The DOS name
 * space today: each name 1-8 characters, optionally '.' and 1-3 more,
 * upper-cased; 0, -ENAMETOOLONG for a longer name or path, -EINVAL for
 * a character DOS names cannot hold (space, "*?/\\:<>|+=;,[]\"", a
 * control character, a second '.', a leading '.').
 */
int ipx_mount_name(const char *volume, const char *path, char *out,
		   size_t cap);
/*
 * The same for a server whose LONG (OS/2) name space the mount uses:
 * each name kept as it is (case too), 1-255 bytes; -EINVAL for a control
 * character or one of \ : * ? " < > | (no host name shown has them);
 * -ENAMETOOLONG for a longer name or a path over cap.
 */
int ipx_mount_name_long(const char *volume, const char *path, char *out,
			size_t cap);

#ifdef __cplusplus
}
#endif

#endif
