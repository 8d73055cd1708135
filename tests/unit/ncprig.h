/*
 * ncprig.h - the NCP test bench: a file server (volumes SYS and a
 * read-only DATA in a fresh temporary directory, beside a directory
 * "outside" that no request may reach) and a client node on one in-memory
 * segment with the fake clock, plus "raw" connections that send NCP
 * packets by hand (to repeat a sequence number, or to stay silent).
 */
#ifndef IPXLAB_TEST_NCPRIG_H
#define IPXLAB_TEST_NCPRIG_H

#include <stddef.h>
#include <stdint.h>

#include "ipxlab/ncp_client.h"
#include "ipxlab/ncp_server.h"
#include "svcnet.h"

struct ncprig {
	struct svcnet *net;
	struct svcnode *srvnode, *cli;
	struct ncp_server *srv;
	char root[256], sys[300], data[300], outside[300], users[300];
};

/* The options ncprig_new uses when given NULL (paths filled in later). */
void ncprig_default_opts(struct ncp_server_opts *o);
struct ncprig *ncprig_new(const struct ncp_server_opts *o);
void ncprig_free(struct ncprig *r);
void ncprig_run(struct ncprig *r, ipx_time d);
void ncprig_server_addr(const struct ncprig *r, struct ipx_addr *out);
/* A client connected and logged in (asserts), in the DOS name space. */
struct ncp_client *ncprig_login(struct ncprig *r, const char *user,
				const char *pass);
/* The same, using the LONG name space the server offers. */
struct ncp_client *ncprig_login_long(struct ncprig *r, const char *user,
				     const char *pass);

struct rawconn {
	struct ipx_socket *sock;
	struct ipx_addr srv;
	uint16_t conn;
	uint8_t seq;
	uint8_t sent[1500];
	size_t sent_len;
	unsigned count;		/* packets received */
	uint8_t last[1500];
	size_t last_len;
};

/* Create a connection (and log in as GUEST with handle 1 on SYS:). */
struct rawconn *rawconn_open(struct ncprig *r, bool login);
void rawconn_close(struct rawconn *b);
/* Send a new request (next sequence) without waiting. */
void rawconn_send(struct ncprig *r, struct rawconn *b, uint8_t fn,
		  const void *data, size_t len);
/* Send a new request and wait for the reply (asserts one comes). */
const uint8_t *rawconn_call(struct ncprig *r, struct rawconn *b, uint8_t fn,
			    const void *data, size_t len, size_t *rlen);
/* Send the last request again, same sequence; wait for an answer. */
const uint8_t *rawconn_resend(struct ncprig *r, struct rawconn *b,
			      size_t *rlen);
/* Packets that arrive within d. */
unsigned rawconn_replies(struct ncprig *r, struct rawconn *b, ipx_time d);
const uint8_t *rawconn_last(struct rawconn *b, size_t *rlen);
/* 0x4C read/write open of a name in SYS: (handle 1). */
const uint8_t *rawconn_open_file(struct ncprig *r, struct rawconn *b,
				 const char *name, uint8_t *handle);
/* Send bytes as they are; run the loop 100 ms. */
void rawconn_send_raw(struct ncprig *r, struct rawconn *b, const void *p,
		      size_t len);
void rawconn_destroy(struct ncprig *r, struct rawconn *b);

#endif
