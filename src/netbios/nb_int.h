/*
 * nb_int.h - NetBIOS internals shared by the module (netbios.c), the name
 * table and look-ups (names.c), sessions (session.c) and the status
 * commands (status.c). Not a public header.
 */
#ifndef IPXLAB_NB_INT_H
#define IPXLAB_NB_INT_H

#include "ipxlab/loop.h"
#include "ipxlab/netbios.h"

#define NB_PERMANENT_NUM 1	/* the permanent node name's number */
#define NB_FIND_MAX 16		/* nodes one FIND NAME collects */
#define NB_MAX_NAMES 253	/* numbers 2..254 */
#define NB_MAX_LSN 254

/* One entry of the local name table. */
struct nb_name {
	struct netbios *nb;
	bool used;
	bool group;
	uint8_t state;		/* NB_NAME_REGISTERING/REGISTERED/DEREGISTERED */
	uint8_t num;
	uint8_t name[NB_NAME_LEN];
	struct nb_ncb *add;	/* the ADD NAME while registering */
	unsigned sent;		/* check-name broadcasts so far */
	struct ipx_timer timer;
};

/* A resolved name. */
struct nb_cache_entry {
	bool used;
	bool group;
	uint8_t name[NB_NAME_LEN];
	struct ipx_addr addr;
	ipx_time expires;
};

/* A name look-up on the network; commands waiting for it hang on it. */
struct nb_find {
	struct nb_find *next;
	struct netbios *nb;
	uint8_t name[NB_NAME_LEN];
	unsigned sent;		/* find-name broadcasts so far */
	bool group;		/* an answer said group name */
	bool answered;		/* first-answer waiters were told */
	unsigned nfound;
	struct ipx_addr found[NB_FIND_MAX];
	struct nb_ncb *waiters;	/* CALL, ADAPTER STATUS, FIND NAME */
	struct ipx_timer timer;
};

/* A remote ADAPTER STATUS waiting for its response. */
struct nb_query {
	struct nb_query *next;
	struct netbios *nb;
	struct nb_ncb *ncb;
	struct ipx_addr to;
	unsigned sent;
	struct ipx_timer timer;
};

/* Session data held until a RECEIVE takes it: one packet's worth. */
struct nb_chunk {
	struct nb_chunk *next;
	size_t len, taken;
	bool last;		/* ends its message */
	uint8_t data[];
};

enum nb_sess_state {
	NB_S_LISTENING = NB_SS_LISTENING,
	NB_S_CALLING = NB_SS_CALLING,
	NB_S_ACTIVE = NB_SS_ACTIVE,
	NB_S_HANGING_UP = NB_SS_HANGING_UP,
	NB_S_CLOSED = NB_SS_HUNG_UP,	/* the peer ended it; data left */
};

struct nb_session {
	struct netbios *nb;
	uint8_t lsn;
	enum nb_sess_state state;
	uint16_t local_id, remote_id;
	uint8_t num;			/* our name's number */
	uint8_t local_name[NB_NAME_LEN];
	uint8_t remote_name[NB_NAME_LEN];	/* LISTEN: may be '*' */
	struct ipx_addr remote;
	size_t max_data;		/* per packet, both ways */
	ipx_time rto, sto;		/* command timeouts; 0: none */
	struct nb_ncb *call;		/* the CALL or LISTEN */
	struct nb_ncb *hangup;
	bool resolving;			/* CALL waits for a look-up */
	bool from_cache;		/* the address came from the cache */
	bool re_resolved;		/* ... and was looked up again */
	int end_reason;			/* NB_RC_CLOSED or NB_RC_SABORT */

	/* sending: SENDs in order; the first one is on the wire */
	struct nb_ncb *sends;
	size_t snd_off;			/* its bytes acknowledged */
	size_t flight;			/* bytes in the packet in flight */
	bool in_flight;
	bool peer_busy;			/* the peer said "not ready" */
	uint16_t snd_seq;		/* of the packet in flight / next */
	unsigned retries;
	struct ipx_timer rexmit;	/* data, call request, session end */

	/* receiving */
	uint16_t rcv_seq;		/* next one expected */
	bool msg_open;
	uint16_t msg_total, msg_got;
	struct nb_chunk *rxq;
	size_t rxq_bytes;
	size_t rxq_count;		/* chunks held */
	struct nb_ncb *receives;
	bool told_busy;			/* we said "not ready" */
	bool end_sent;			/* our session end is out */
	bool told;			/* the application knows it ended */
	struct nb_session *next;	/* in the order sessions came */

	ipx_time last_rx, last_tx, last_probe;
};

struct netbios {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct ipx_socket *sock;
	struct nb_options opts;
	/* from SHELL.CFG */
	unsigned max_sessions, max_commands, send_bufs, recv_bufs;
	unsigned retry_count, bcast_count;
	ipx_time retry_delay, bcast_delay;
	ipx_time listen_timeout, verify_timeout, abort_timeout;

	uint8_t perm[NB_NAME_LEN];	/* the permanent node name */
	struct nb_name *names;		/* opts.names entries */
	uint8_t next_num;
	struct nb_cache_entry *cache;	/* opts.cache_size entries */
	struct nb_find *finds;
	struct nb_query *queries;

	struct nb_session *sess[256];	/* by lsn */
	struct nb_session *sessions;	/* the same, oldest first */
	size_t nsess;
	uint8_t next_lsn;
	uint8_t gen;			/* high byte of new connection ids */

	struct nb_ncb *dg_receives;	/* RECEIVE DATAGRAM */
	struct nb_ncb *bc_receives;	/* RECEIVE BROADCAST DATAGRAM */
	struct nb_ncb *any_receives;	/* RECEIVE ANY */

	unsigned pending;		/* commands not yet posted */
	unsigned sends_held;		/* NETBIOS SEND BUFFERS in use */
	unsigned recvs_held;		/* NETBIOS RECEIVE BUFFERS in use */
	struct nb_ncb *done;		/* completed, POST not yet run */
	struct ipx_timer done_timer;
	struct ipx_timer tick;		/* the session watchdog */
	ipx_time opened;
	struct nb_stats stats;
};

/* ---- netbios.c ---- */
/* Complete a pending command: POST runs from the loop, soon. */
void nb_done(struct netbios *nb, struct nb_ncb *ncb, uint8_t rc);
/* NCB queues, linked through next_. */
void nb_q_push(struct nb_ncb **q, struct nb_ncb *ncb);
bool nb_q_remove(struct nb_ncb **q, struct nb_ncb *ncb);
struct nb_ncb *nb_q_pop(struct nb_ncb **q);
unsigned nb_q_count(const struct nb_ncb *q);
/* Send a packet (type 4) or a type-20 broadcast (body after the list). */
int nb_send_to(struct netbios *nb, const struct ipx_addr *to,
	       const uint8_t *p, size_t len);
int nb_broadcast(struct netbios *nb, const uint8_t *body, size_t len);
/* Answer the packet being received (type 4), back the way it came. */
int nb_reply(struct netbios *nb, const struct ipx_header *req,
	     const uint8_t *p, size_t len);
/* NETBIOS SEND (send) or RECEIVE BUFFERS: take one for the command
 * (nb_done gives it back), or with !keep only check there is one. 0x01
 * for a length without a buffer, 0x09 when none is left. */
uint8_t nb_take_buffer(struct netbios *nb, struct nb_ncb *ncb, bool send,
		       bool keep);
/* A receive for name number num (0xFF: any of ours) queued on q, with
 * its receive buffer: NB_RC_PENDING, or why not. */
uint8_t nb_named_receive(struct netbios *nb, struct nb_ncb *ncb,
			 struct nb_ncb **q);
/* The largest datagram this node sends. */
size_t nb_dgram_max(const struct netbios *nb);
/* The watchdog runs while there are sessions. */
void nb_tick_start(struct netbios *nb);

/* ---- names.c ---- */
struct nb_name *nb_name_find(struct netbios *nb,
			     const uint8_t name[NB_NAME_LEN]);
/* A registered (or deregistered, still in use) name by number; the
 * permanent name (number 1) has no entry: *perm is set instead. */
struct nb_name *nb_name_by_num(struct netbios *nb, uint8_t num, bool *perm);
/* Is this name ours to answer for (registered, or the permanent name)? */
/* A name a CALL or ADAPTER STATUS may name: a valid name, or a
 * permanent node name. */
bool nb_name_callable(const uint8_t name[NB_NAME_LEN]);
bool nb_name_answers(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		     uint8_t *num);
/* The name of a number (the permanent one included); NULL if none. */
const uint8_t *nb_num_name(struct netbios *nb, uint8_t num);
uint8_t nb_add_name(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_delete_name(struct netbios *nb, struct nb_ncb *ncb);
/* A session on name 'num' ended: a deleted name may go now. */
void nb_name_release(struct netbios *nb, uint8_t num);
void nb_names_input(struct netbios *nb, const struct ipx_header *ih,
		    const struct nb_packet *pk);
void nb_names_free(struct netbios *nb);

/* Look a name up: from the cache (or our own table) at once when allowed:
 * NB_RESOLVED with *addr; else start (or join) a find: NB_LOOKING, and
 * nb_resolved() is called for the ncb later; IPX_ENOMEM. */
enum { NB_LOOKING = 0, NB_RESOLVED = 1 };
int nb_resolve(struct netbios *nb, struct nb_ncb *ncb,
	       const uint8_t name[NB_NAME_LEN], bool use_cache,
	       struct ipx_addr *addr);
/* Stop waiting for a look-up (cancel, session gone); false if the ncb
 * was not waiting for one. */
bool nb_resolve_abandon(struct netbios *nb, struct nb_ncb *ncb);
void nb_cache_put(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		  const struct ipx_addr *addr, bool group);
void nb_cache_forget(struct netbios *nb, const uint8_t name[NB_NAME_LEN]);
bool nb_cache_get(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		  struct ipx_addr *addr, bool *group);
uint8_t nb_find_name(struct netbios *nb, struct nb_ncb *ncb);
/* A look-up ended for ncb: addr NULL when nobody answered. */
void nb_resolved(struct netbios *nb, struct nb_ncb *ncb,
		 const struct nb_find *f, const struct ipx_addr *addr);

/* ---- session.c ---- */
uint8_t nb_call(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_listen(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_hang_up(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_send_cmd(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_receive(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_receive_any(struct netbios *nb, struct nb_ncb *ncb);
void nb_call_resolved(struct nb_session *s, const struct ipx_addr *addr);
void nb_session_input(struct netbios *nb, const struct ipx_header *ih,
		      const struct nb_packet *pk);
void nb_sessions_watchdog(struct netbios *nb, ipx_time now);
/* Cancel one session command (SEND and CALL end the session). */
bool nb_session_cancel(struct netbios *nb, struct nb_ncb *target);
/* End every session and LISTEN of name 'num' (DELETE NAME) with rc. */
void nb_sessions_of_name(struct netbios *nb, uint8_t num, bool listens_only,
			 uint8_t rc);
unsigned nb_sessions_using(struct netbios *nb, uint8_t num);
void nb_sessions_free(struct netbios *nb);

/* ---- status.c ---- */
uint8_t nb_adapter_status(struct netbios *nb, struct nb_ncb *ncb);
uint8_t nb_session_status(struct netbios *nb, struct nb_ncb *ncb);
void nb_status_resolved(struct netbios *nb, struct nb_ncb *ncb,
			const struct ipx_addr *addr);
void nb_status_input(struct netbios *nb, const struct ipx_header *ih,
		     const struct nb_packet *pk);
bool nb_status_cancel(struct netbios *nb, struct nb_ncb *target);
void nb_status_free(struct netbios *nb);

#endif
