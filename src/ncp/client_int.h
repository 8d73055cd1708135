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
	/* The request outstanding. */
	bool waiting;
	uint8_t want_seq;
	uint16_t want_type;	/* request type sent */
	bool got, busy;
	bool cancel;		/* ncp_client_cancel */
	uint8_t reply[NCP_CLI_MAX];
	size_t reply_len;
	/* SAP search. */
	const char *find_name;
	bool find_general;	/* a general query has gone out */
	bool found;
	struct ipx_sap_entry found_entry;
	struct ncp_client_stats stats;
};

/* A request with a length word and sub-function (0x16, 0x17). */
int ncp_request_sub(struct ncp_client *cl, uint8_t function, uint8_t sub,
		    const void *data, size_t len, uint8_t *reply, size_t cap,
		    size_t *rlen);

#endif
