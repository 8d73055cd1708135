/*
 * client_int.h - what the two files of the NCP client share.
 */
#ifndef IPXLAB_NCP_CLIENT_INT_H
#define IPXLAB_NCP_CLIENT_INT_H

#include "ipxlab/ncp_client.h"

#include "ipxlab/buf.h"

/* An NCP packet: up to the largest IPX packet (Token-Ring frames over
 * 1,500 bytes in memory, docs/links.md). */
#define NCP_CLI_MAX IPX_MAX_PACKET

struct ncp_client {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct ipx_socket *sock, *wdog;
	struct ncp_client_opts opts;
	struct ipx_addr server;
	bool connected;
	uint16_t conn;
	uint8_t seq;		/* of the last request */
	uint8_t dh;		/* directory handle: SYS:LOGIN, then SYS: */
	uint16_t bufsize;
	/* How this server reads search attribute 0x10 (ncp_list): 0 not
	 * known yet, 1 "directories too" (one pass), -1 "directories
	 * only" (a second pass for the files). Learnt once a connection. */
	int sattr_dir;
	/* The name space of the file calls: 0 DOS, 4 LONG (client_ns.c). */
	uint8_t ns;
	/* The request outstanding. */
	bool waiting;
	uint8_t want_seq;
	uint16_t want_type;	/* request type sent */
	bool got, busy;
	bool cancel;		/* ncp_client_cancel */
	bool msg_waiting;	/* the last reply's status bit 0x40 */
	uint8_t reply[NCP_CLI_MAX];
	size_t reply_len;
	/* SAP search. */
	const char *find_name;
	bool find_general;	/* a general query has gone out */
	bool found;
	struct ipx_sap_entry found_entry;
	struct ncp_client_stats stats;
	struct ncp_cli_burst *burst;	/* burst.c; NULL: none granted */
};

/* A request with a length word and sub-function (0x16, 0x17). */
int ncp_request_sub(struct ncp_client *cl, uint8_t function, uint8_t sub,
		    const void *data, size_t len, uint8_t *reply, size_t cap,
		    size_t *rlen);

/* Allocate the directory handle of the connection on 'path' (client.c). */
int ncp_alloc_dh(struct ncp_client *cl, const char *path);

/* client_ns.c: the file calls through the LONG name space (0x57). */
int ncp_ns_detect(struct ncp_client *cl);
int ncp_ns_open(struct ncp_client *cl, const char *path,
		enum ncp_open_mode m, struct ncp_fh *fh);
int ncp_ns_erase(struct ncp_client *cl, const char *path);
int ncp_ns_rename(struct ncp_client *cl, const char *from, const char *to);
int ncp_ns_mkdir(struct ncp_client *cl, const char *path);
int ncp_ns_rmdir(struct ncp_client *cl, const char *path);
int ncp_ns_list(struct ncp_client *cl, const char *dir, const char *pattern,
		int (*cb)(const struct ncp_entry *e, void *ctx), void *ctx);
int ncp_ns_stat(struct ncp_client *cl, const char *path,
		struct ncp_entry *out);
int ncp_ns_set_attributes(struct ncp_client *cl, const char *path,
			  uint8_t attr);

/* ---- burst.c ---- */
/* 0x65 after the connection is made: 0 (granted or refused) or an
 * error of the transport. */
int ncp_burst_connect(struct ncp_client *cl);
void ncp_burst_drop(struct ncp_client *cl);
/* A 0x7777 packet on the client's socket. */
void ncp_burst_input(struct ncp_client *cl, const struct ipx_addr *from,
		     const uint8_t *data, size_t len);
int ncp_burst_read(struct ncp_client *cl, const struct ncp_fh *fh,
		   uint32_t off, void *buf, size_t n, size_t *got);
int ncp_burst_write(struct ncp_client *cl, const struct ncp_fh *fh,
		    uint32_t off, const void *buf, size_t n);

#endif
