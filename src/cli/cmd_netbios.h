/*
 * cmd_netbios.h - what the files of "ipxlab netbios" share: the tool's
 * state (one per process), its NCBs (jobs) and its name helpers
 * (cmd_netbios_names.c). cmd_netbios.c parses and runs an action;
 * cmd_netbios_dgram.c sends and receives datagrams, cmd_netbios_session.c
 * is netcat over a session. Private to src/cli.
 */
#ifndef IPXLAB_CLI_CMD_NETBIOS_H
#define IPXLAB_CLI_CMD_NETBIOS_H

#include "cli.h"
#include "ipxlab/netbios.h"

#define MAX_NAMES 16
#define RECEIVES 4		/* RECEIVE DATAGRAMs kept posted */
#define MAX_JOBS 64

struct opts {
	const char *group[MAX_NAMES];
	unsigned ngroup;
	const char *as, *from;
	bool bcast, hex, stats;
	unsigned long count;
	double timeout;
};

/* One command of the tool, with its buffer. */
struct job {
	struct nb_ncb ncb;
	bool done;
	uint8_t buf[NB_MAX_MESSAGE];
};

struct nb_tool {
	struct cli_node cn;
	struct netbios *nb;
	struct opts o;
	/* netcat */
	struct nb_stream *stream;
	bool stdin_watched, finished;
	int result;
	/* recv */
	unsigned long got;
	bool out_closed;
	bool exiting;		/* POST routines have nothing more to do */
	/* every NCB the tool made (see job_new) */
	struct job *jobs[MAX_JOBS];
	unsigned njobs;
	/* names we claimed: given back at the end */
	uint8_t claimed[MAX_NAMES * 2][NB_NAME_LEN];
	unsigned nclaimed;
};
extern struct nb_tool nt;

/* What completes while the tool gives its names back is of no interest. */
#define IF_EXITING_RETURN()      \
	do {                     \
		if (nt.exiting)  \
			return;  \
	} while (0)

/* cmd_netbios_names.c: a job (an NCB and its buffer) that lives until
 * the end; submit and wait for it. */
struct job *nbc_job_new(uint8_t command);
bool nbc_job_done(void *ctx);
/* "ipxlab netbios: WHAT NAME: error (0xRC)". */
void nbc_fail(const char *what, const uint8_t *name, uint8_t rc);
/* A NetBIOS name, or -1 after a message. */
int nbc_parse_name(const char *what, const char *text, bool star,
		   uint8_t out[NB_NAME_LEN]);
/* Claim names at once; 0, or -1 after a message. */
int nbc_claim(const char *const *names, const bool *group, unsigned n,
	      uint8_t *nums);
bool nbc_never(void *ctx);
/* This node's permanent name (its number in *num). */
int nbc_own_name(uint8_t *num, uint8_t name[NB_NAME_LEN]);
/* The actions: exit codes. */
int nbc_add(char **names, int n);
int nbc_find(const char *name);
int nbc_status(const char *name);
int nbc_send(const char *name);	/* cmd_netbios_dgram.c */
int nbc_recv(const char *name);
int nbc_netcat(uint8_t lsn);	/* cmd_netbios_session.c */
int nbc_session(bool listen, const char *name);

#endif
