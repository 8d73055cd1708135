/*
 * cmd_spx.h - what the two files of "ipxlab spx" share: the session's
 * state (one per process) and the netcat that moves standard input and
 * output through it (cmd_spx_nc.c); cmd_spx.c parses, starts and ends.
 * Private to src/cli.
 */
#ifndef IPXLAB_CLI_CMD_SPX_H
#define IPXLAB_CLI_CMD_SPX_H

#include "cli.h"
#include "ipxlab/spx.h"

struct spx_nc {
	struct cli_node cn;
	struct spx *spx;
	struct spx_conn *conn;
	struct spx_listener *lst;
	struct ipx_hook flush_out;
	bool stdin_regular, stdin_watched, stdin_eof;
	bool peer_done;		/* the peer's end of data arrived */
	bool close_at_eof;	/* --disconnect-at-eof */
	bool we_closed;		/* ... and our disconnect went in */
	bool out_failed;	/* standard output could not take data */
	bool interrupted;	/* by a signal: closing quietly */
	bool done, stats;
	int result;		/* on_closed reason */
	uint64_t bytes_in;	/* from standard input into the session */
	uint64_t bytes_out;	/* from the peer to standard output */
	char buf[16384];
	size_t have;		/* bytes read from stdin not yet queued */
	struct spx_status final;
};
extern struct spx_nc sn;

/* The session's events (cmd_spx_nc.c). */
extern const struct spx_handlers spx_nc_handlers;
/* listen: the one session accepted, standard input started. */
void spx_nc_on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx);
/* A loop hook: what the peer sent reaches stdout each turn. */
void spx_nc_flush_stdout(struct ipx_loop *loop, void *ctx);

#endif
