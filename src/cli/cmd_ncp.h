/*
 * cmd_ncp.h - what the files of "ipxlab ncp" share (cmd_ncp.c: options
 * and the command; cmd_ncp_conn.c: the connection, found again when the
 * server moves; cmd_ncp_get.c, cmd_ncp_put.c: the transfers;
 * cmd_ncp_ops.c: ls, stat and the one-call commands; cmd_ncp_msg.c:
 * send, messages, passwd; cmd_ncp_rights.c: rights, grant, revoke).
 * Private to src/cli.
 */
#ifndef IPXLAB_CLI_CMD_NCP_H
#define IPXLAB_CLI_CMD_NCP_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/sap.h"

#define CHUNK (64 * 1024)
#define PROGRESS_MIN (256 * 1024)
/* get_one's own return beside CLI_OK/CLI_FAIL: a signal ended it. */
#define CLI_INTERRUPTED 100

struct session {
	struct cli_node cn;
	struct ipx_sap *sap;
	struct ncp_client *cl;
	bool progress;
	char found[48];		/* the server's name */
	/* To connect again (ncpc_recovered()). */
	const char *user, *pass;
	bool login;
	uint16_t bufsize;
	/* While the server is silent: SAP queries for its name every
	 * second; an answer from another address cancels the wait. */
	struct ipx_timer refind;
	bool moved;
	struct ipx_addr moved_to;
	unsigned reconnects;
};

/* What the options asked for. */
struct ncp_args {
	const char *server, *user, *pass;
	bool login, user_given, clear_text;
	bool dos_names;		/* --dos-names */
	bool no_burst;		/* --no-burst */
	unsigned long bufsize;
	double findto;
};

/* "ipxlab ncp: WHAT ARG: error"; CLI_FAIL. */
int ncpc_fail(const char *what, const char *arg, int err);
/* The same for a path, in words where the completion code says little. */
int ncpc_fail_path(const char *what, const char *path, int err);
/* After a failed read or write: connected again (see cmd_ncp_conn.c)? */
bool ncpc_recovered(struct session *s, int *rc);
void ncpc_close_after(struct session *s, const struct ncp_fh *fh, int rc);
void ncpc_show_progress(struct session *s, const char *name, uint64_t done,
			uint64_t total, ipx_time t0, bool last);
/* On the joined node s->cn: find the server, connect, log in, negotiate
 * the buffer; CLI_OK, or the exit code with the message printed. */
int ncpc_connect(struct session *s, const struct ncp_args *a);
/* Undo ncpc_connect (as far as it went) and leave the network. */
void ncpc_end(struct session *s);
int ncpc_get(struct session *s, const char *remote, const char *local);
int ncpc_put(struct session *s, const char *local, const char *remote);
/* cmd_ncp_msg.c: send, messages, passwd; a held message to stderr. */
int ncpc_send(struct session *s, const char *to, const char *msg);
int ncpc_messages(struct session *s);
int ncpc_passwd(struct session *s);
void ncpc_show_held(struct session *s);
/* rights, grant, revoke (cmd_ncp_rights.c). */
int ncpc_rights(struct session *s, int argc, char **argv);
/* One command, argv[0] its name, its arguments checked. */
int ncpc_run(struct session *s, int argc, char **argv);

#endif
