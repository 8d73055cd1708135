/*
 * stack_int.h - what the files of the stack daemon share (not public):
 * the stack, its programs' sockets, its devices, and the request
 * handlers split between sock.c (sockets) and iface.c (interfaces,
 * routes, /proc text).
 */
#ifndef IPXLAB_STACK_INT_H
#define IPXLAB_STACK_INT_H

#include <sys/types.h>

#include "ipxlab/loop.h"
#include "ipxlab/stack.h"
#include "ipxlab/stack_proto.h"

#define STACK_MAX_DEVS 8
#define STACK_MAX_UNSUP 32
/* st->buf: one control reply. */
#define STACK_BUF_LEN IPX_STACK_MAX_CTL
/* st->rxbuf: frames read per system call, and the room for each: a
 * header and the largest IPX payload, plus one byte to see a larger one
 * cut (sock.c). */
#define STACK_RX_BATCH 32
#define STACK_RX_SLOT (IPX_STACK_FRAME_HDR + IPX_STACK_MAX_PAYLOAD + 1)

/* One program's socket: the stack's end of its socketpair. */
struct stack_sock {
	struct ipx_stack *st;
	int fd;			/* the stack's end */
	ino_t ino;		/* the program's end, to find us by */
	uid_t uid;		/* of the program that opened it */
	struct ipx_socket *isock;	/* NULL until bound */
	struct ipx_addr local;	/* bound address (valid with isock) */
	struct ipx_addr peer;	/* connect()'s destination */
	bool connected;
	uint8_t type;		/* IPX_TYPE, or connect()'s sipx_type */
	struct stack_sock *next;
};

/* A link as the ioctls and /proc name it. */
struct stack_dev {
	struct ipx_link *link;
	char name[IPX_STACK_DEVLEN + 1];
	uint8_t frame;		/* IPX_STACK_LFRAME_* */
	bool attached;		/* an interface of the node (else deleted) */
	bool opened;		/* opened by SIOCSIFADDR: closed on delete */
};

/* Who asked (SO_PEERCRED). */
struct stack_cred {
	pid_t pid;
	uid_t uid;
};

struct ipx_stack {
	struct ipx_node *node;
	struct ipx_loop *loop;
	int lfd;
	char path[108];
	bool allow_low;
	struct stack_sock *socks;
	size_t nsocks;
	unsigned seq;		/* names the sockets' stack ends */
	struct stack_dev devs[STACK_MAX_DEVS];
	size_t ndevs;
	uint8_t auto_primary, auto_create;	/* SIOCAIPXPRISLT, ITFCRT */
	struct ipx_stack_stats stats;
	struct {
		char name[IPX_STACK_NAMELEN];
		uint64_t count;
	} unsup[STACK_MAX_UNSUP];
	size_t nunsup;
	uint8_t *buf;		/* STACK_BUF_LEN: a reply */
	uint8_t *rxbuf;		/* STACK_RX_BATCH * STACK_RX_SLOT: frames */
	struct ipx_timer announce;	/* announce.c, while an internal net */
};

/* A reply being built: errno and body. */
struct stack_reply {
	uint32_t err;
	uint8_t *body;		/* st->buf + IPX_STACK_REPLY_HDR */
	size_t len;
	size_t cap;
};

/* sock.c */
struct stack_sock *stack_sock_new(struct ipx_stack *st, uid_t uid,
				  int *client_fd);
void stack_sock_free(struct stack_sock *ss);
struct stack_sock *stack_sock_find(struct ipx_stack *st, int fd);
void stack_sock_request(struct stack_sock *ss, const struct ipx_stack_req *req,
			const struct stack_cred *cred, struct stack_reply *rep);

/* iface.c */
void stack_iface_request(struct ipx_stack *st, const struct ipx_stack_req *req,
			 const struct stack_cred *cred,
			 struct stack_reply *rep);
/* The primary interface's address (socket 0); false when there is none. */
bool stack_primary(const struct ipx_stack *st, struct ipx_addr *out);
/* connect() and sendto() to net: ENETUNREACH unless it is 0 (the
 * primary's), ours, has a route, or a link's network is unknown (a hub's
 * 0: it may lead anywhere). */
bool stack_reachable(const struct ipx_stack *st, uint32_t net);
/* Is net one of ours (a link's or the internal one)? Its node if so. */
bool stack_own_net(const struct ipx_stack *st, uint32_t net,
		   uint8_t node[IPX_NODE_LEN]);

/* announce.c (and ipx_stack_announce): tell tunnel links that net is
 * gone. */
void stack_announce_gone(struct ipx_stack *st, uint32_t net);

/* stack.c: does the caller hold CAP_NET_ADMIN (its CapEff in
 * /proc/PID/status; root when that cannot be read)? */
bool stack_cred_admin(const struct stack_cred *cred);

#endif
