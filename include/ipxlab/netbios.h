/*
 * netbios.h - NetBIOS over IPX, as Novell's NetBIOS emulator ran it
 * (socket 0x455): a name table whose names are claimed by broadcast and
 * defended, name look-up with a cache, datagrams, and stop-and-wait
 * sessions carrying messages of up to 65,535 bytes. The application
 * interface is the classic Network Control Block (NCB) command set, made
 * to fit the event loop. Design and wire format: docs/netbios.md.
 *
 * Wire formats (after the 30-byte IPX header; socket 0x455 at both ends):
 *
 * Name management (IPX type 20 broadcast, or type 4 for the answers), 50
 * bytes. Answers carry the network list too (zeros), as Wireshark expects:
 *
 *   off size field
 *     0   32 networks crossed  8 x 4 bytes BE; all zero from the originator,
 *                             routers fill entry [hop count] (spec 4.2)
 *    32    1 name type flags   0x80 group, 0x40 in use, 0x04 registered,
 *                             0x02 duplicated, 0x01 deregistered
 *    33    1 data stream type  1 find name, 2 name recognized, 3 check name
 *                             (claim), 4 name in use, 5 deregister name
 *    34   16 the name
 *
 * Datagram (data stream type 0x0B): type 4 to a node known to hold the
 * receiver's unique name, otherwise a type-20 broadcast that starts with
 * the 32-byte network list. A broadcast datagram has a receiver name of
 * 16 zero bytes (no valid name starts with 0x00):
 *
 *     0    1 connection control  0
 *     1    1 data stream type    0x0B
 *     2   16 receiver's name
 *    18   16 sender's name
 *    34    . data, 0 to NB_MAX_DATAGRAM bytes
 *
 * Session packet (type 4, no network list; 16-bit fields little-endian,
 * as Wireshark decodes them):
 *
 *     0    1 connection control  0x80 system, 0x40 acknowledgement
 *                                requested, 0x20 attention (in an ack:
 *                                receiver not ready), 0x10 end of message,
 *                                0x08 resend
 *     1    1 data stream type    6 session data, 7 session end,
 *                                8 session end acknowledged
 *     2    2 source connection id
 *     4    2 destination connection id   0xFFFF in a call request
 *     6    2 send sequence number        of this data packet
 *     8    2 total data length           of the whole message
 *    10    2 offset                      of this fragment in the message
 *    12    2 data length                 of this fragment
 *    14    2 receive sequence number     next one expected from the peer
 *    16    2 bytes received              of the peer's current message
 *    18    . data
 *
 * Session set-up and control (all data stream type 6 unless said):
 *   call request  SYS|ACK, destination id 0xFFFF, 34 bytes of data:
 *                 called name (16), calling name (16), the largest
 *                 fragment the caller takes (2, LE)
 *   call accept   SYS, 2 bytes of data: the largest fragment the
 *                 listener takes (2, LE)
 *   call reject   session end (7), SYS, source id 0xFFFF, 1 byte of data:
 *                 NB_REJECT_NO_LISTEN or NB_REJECT_NOT_HERE
 *   data          ACK requested, EOM on the last fragment, RESEND when
 *                 sent again
 *   ack           SYS, no data; receive sequence number = next expected;
 *                 with ATTN: the data was not taken (no room), wait
 *   probe         SYS|ACK, no data: answered by an ack (the watchdog)
 *   session end   7, SYS|ACK; answered by 8, SYS
 *
 * Status query (type 4, data stream type 9): connection control 0, 9, the
 * name (16). Status response (0x0A): 0, 0x0A, the name (16), then the
 * adapter status in the classic layout below.
 *
 * Return codes and command codes are those of the IBM NetBIOS interface;
 * buffers of ADAPTER STATUS and SESSION STATUS have its layouts (little-
 * endian words): see the NB_AS_* and NB_SS_* offsets below.
 */
#ifndef IPXLAB_NETBIOS_H
#define IPXLAB_NETBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/clock.h"
#include "ipxlab/ipx.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NB_NAME_LEN 16
#define NB_ROUTES_LEN 32	/* the type-20 network list */
#define NB_NAME_PKT_LEN (NB_ROUTES_LEN + 2 + NB_NAME_LEN)	/* 50 */
#define NB_SESS_HDR_LEN 18
#define NB_DGRAM_HDR_LEN (2 + 2 * NB_NAME_LEN)	/* 34 */
#define NB_CALL_DATA_LEN (2 * NB_NAME_LEN + 2)	/* 34 */
#define NB_STATUS_HDR_LEN (2 + NB_NAME_LEN)	/* 18 */
/* The classic NetBIOS datagram limit. */
#define NB_MAX_DATAGRAM 512
/* The largest message: NCB lengths are 16 bits. */
#define NB_MAX_MESSAGE 65535
#define NB_NO_CONN 0xFFFF

/* Data stream types (byte 1 after the network list, if any). */
enum {
	NB_DS_FIND_NAME = 0x01,
	NB_DS_NAME_RECOGNIZED = 0x02,
	NB_DS_CHECK_NAME = 0x03,
	NB_DS_NAME_IN_USE = 0x04,
	NB_DS_DEREGISTER = 0x05,
	NB_DS_SESSION_DATA = 0x06,
	NB_DS_SESSION_END = 0x07,
	NB_DS_SESSION_END_ACK = 0x08,
	NB_DS_STATUS_QUERY = 0x09,
	NB_DS_STATUS_RESPONSE = 0x0A,
	NB_DS_DATAGRAM = 0x0B,
};

/* Name type flags of name-management packets (and of ADAPTER STATUS). */
enum {
	NB_NF_GROUP = 0x80,
	NB_NF_IN_USE = 0x40,
	NB_NF_REGISTERED = 0x04,
	NB_NF_DUPLICATED = 0x02,
	NB_NF_DEREGISTERED = 0x01,
};

/* Connection control bits of session packets. */
enum {
	NB_CC_SYS = 0x80,
	NB_CC_ACK = 0x40,
	NB_CC_ATTN = 0x20,	/* in an ack: receiver not ready */
	NB_CC_EOM = 0x10,
	NB_CC_RESEND = 0x08,
};

/* Why a call request was refused (the data byte of a call reject). */
enum {
	NB_REJECT_NO_LISTEN = 1,	/* the name is here, nobody listens */
	NB_REJECT_NOT_HERE = 2,		/* the name is not in this table */
};

/* ---- codecs (wire.c); every decoder checks lengths, never trusts ---- */

struct nb_name_pkt {
	uint32_t routes[8];
	uint8_t flags;
	uint8_t ds;
	uint8_t name[NB_NAME_LEN];
};

struct nb_sess_hdr {
	uint8_t cc;
	uint8_t ds;
	uint16_t src_id, dst_id;
	uint16_t seq;
	uint16_t total;		/* message length */
	uint16_t offset;	/* of this fragment */
	uint16_t len;		/* data bytes in this packet */
	uint16_t rcv_seq;
	uint16_t rcv_bytes;
};

struct nb_dgram_hdr {
	uint8_t cc;
	uint8_t ds;
	uint8_t to[NB_NAME_LEN];	/* all zero: broadcast datagram */
	uint8_t from[NB_NAME_LEN];
};

/* What an IPX payload on socket 0x455 is, by the rule in docs/netbios.md
 * (the one Wireshark uses, with session and datagram types first). */
struct nb_packet {
	bool routes;		/* starts with the network list */
	uint8_t ds;		/* data stream type */
	const uint8_t *body;	/* after the network list */
	size_t len;		/* bytes from body */
};
/* Classify a payload of an IPX packet of 'ipx_type'. IPX_ESHORT if it is
 * too short to carry a data stream type. */
int nb_packet_classify(uint8_t ipx_type, const uint8_t *p, size_t len,
		       struct nb_packet *out);

/* Name-management packet: decode from a classified body (18 bytes after
 * the list) or a whole 50-byte packet; encode always writes 50 bytes. */
int nb_name_pkt_decode(const struct nb_packet *pk, struct nb_name_pkt *out);
void nb_name_pkt_encode(const struct nb_name_pkt *np,
			uint8_t out[NB_NAME_PKT_LEN]);

/* Session header: IPX_ESHORT below 18 bytes or when the data length
 * field claims more bytes than there are. */
int nb_sess_hdr_decode(const uint8_t *p, size_t len, struct nb_sess_hdr *h);
void nb_sess_hdr_encode(const struct nb_sess_hdr *h,
			uint8_t out[NB_SESS_HDR_LEN]);

int nb_dgram_hdr_decode(const uint8_t *p, size_t len,
			struct nb_dgram_hdr *h);
void nb_dgram_hdr_encode(const struct nb_dgram_hdr *h,
			 uint8_t out[NB_DGRAM_HDR_LEN]);

/* The data of a call request. */
struct nb_call_req {
	uint8_t called[NB_NAME_LEN];
	uint8_t calling[NB_NAME_LEN];
	uint16_t max_data;
};
int nb_call_req_decode(const uint8_t *p, size_t len, struct nb_call_req *c);
void nb_call_req_encode(const struct nb_call_req *c,
			uint8_t out[NB_CALL_DATA_LEN]);

/* ---- names ---- */

/* A name that can never be valid (broadcast datagrams address it). */
extern const uint8_t nb_name_none[NB_NAME_LEN];
/*
 * Parse a name as people type it: up to 15 characters padded with spaces
 * and a suffix byte, "NAME" (suffix 00) or "NAME<XX>" (hex suffix); or
 * exactly 16 characters taken as they are. "\xHH" writes any byte. The
 * result must be a valid name (first byte neither 0 nor '*'), except that
 * "*" alone is accepted when allow_star (LISTEN from anyone, local ADAPTER
 * STATUS). Returns IPX_OK or IPX_EINVAL.
 */
int nb_name_parse(const char *text, bool allow_star,
		  uint8_t out[NB_NAME_LEN]);
/* "NAME<XX>": trailing spaces of the first 15 bytes dropped, other
 * unprintable bytes as \xHH; a permanent node name as "*node XXXXXXXXXXXX". */
#define NB_NAME_STRLEN 80
char *nb_name_format(const uint8_t name[NB_NAME_LEN],
		     char out[NB_NAME_STRLEN]);
/* The permanent node name: ten zero bytes and the node address. */
void nb_permanent_name(const uint8_t node[IPX_NODE_LEN],
		       uint8_t out[NB_NAME_LEN]);
bool nb_name_valid(const uint8_t name[NB_NAME_LEN]);

/* ---- the NCB interface ---- */

/* Commands (the IBM codes of the waiting forms). */
enum nb_command {
	NB_CALL = 0x10,
	NB_LISTEN = 0x11,
	NB_HANG_UP = 0x12,
	NB_SEND = 0x14,
	NB_RECEIVE = 0x15,
	NB_RECEIVE_ANY = 0x16,
	NB_SEND_DATAGRAM = 0x20,
	NB_RECEIVE_DATAGRAM = 0x21,
	NB_SEND_BCAST_DATAGRAM = 0x22,
	NB_RECEIVE_BCAST_DATAGRAM = 0x23,
	NB_ADD_NAME = 0x30,
	NB_DELETE_NAME = 0x31,
	NB_ADAPTER_STATUS = 0x33,
	NB_SESSION_STATUS = 0x34,
	NB_CANCEL = 0x35,
	NB_ADD_GROUP_NAME = 0x36,
	NB_FIND_NAME = 0x78,
};

/* Return codes (IBM NetBIOS), with their messages. */
#define NB_RETURN_CODES(X)                                                   \
	X(OK, 0x00, "good return")                                          \
	X(BUFLEN, 0x01, "illegal buffer length")                            \
	X(BADCMD, 0x03, "invalid command")                                  \
	X(TIMEOUT, 0x05, "command timed out")                               \
	X(INCOMPLETE, 0x06, "message incomplete (buffer too small)")        \
	X(BADLSN, 0x08, "illegal local session number")                     \
	X(NORES, 0x09, "no resource available (raise NETBIOS SEND/RECEIVE BUFFERS)") \
	X(CLOSED, 0x0A, "session closed")                                   \
	X(CANCELLED, 0x0B, "command cancelled")                             \
	X(DUPNAME, 0x0D, "duplicate name in the local name table")          \
	X(NAMTFUL, 0x0E, "name table full")                                 \
	X(ACTSES, 0x0F, "name has active sessions; deleted when they end")  \
	X(LOCTFUL, 0x11, "session table full (raise NETBIOS SESSIONS)")     \
	X(REJECT, 0x12, "session open rejected: no LISTEN for that name")   \
	X(BADNUM, 0x13, "illegal name number")                              \
	X(NOCALL, 0x14, "cannot find the name called, or no answer")        \
	X(NOWILD, 0x15, "name not found, or '*' or 00h not allowed")        \
	X(INUSE, 0x16, "duplicate name: in use on another node")            \
	X(NAMERR, 0x17, "name deleted")                                     \
	X(SABORT, 0x18, "session ended abnormally")                         \
	X(NAMCONF, 0x19, "name conflict detected")                          \
	X(TOOMANY, 0x22, "too many commands outstanding (raise NETBIOS COMMANDS)") \
	X(CANOCCR, 0x24, "command completed while cancel occurring")        \
	X(CANCEL, 0x26, "command not valid to cancel")                      \
	X(PENDING, 0xFF, "command pending")

#define NB_RC_ENUM_(id, code, msg) NB_RC_##id = code,
enum nb_rc { NB_RETURN_CODES(NB_RC_ENUM_) };
#undef NB_RC_ENUM_

const char *nb_strerror(uint8_t retcode);
/* "NAME" of a command code, for messages. */
const char *nb_command_name(uint8_t command);

struct nb_ncb;
/* The POST routine: called once for a command nb_submit() left pending,
 * from the event loop, never from inside nb_submit(). The NCB is the
 * caller's again when it runs (it may be reused or freed there). */
typedef void (*nb_post_cb)(struct nb_ncb *ncb);

/*
 * A Network Control Block. Fill the fields the command uses, submit it,
 * and keep it (and its buffer) alive until it completes.
 */
struct nb_ncb {
	uint8_t command;	/* enum nb_command */
	uint8_t retcode;	/* enum nb_rc; NB_RC_PENDING until done */
	uint8_t lsn;		/* local session number: in for session
				 * commands, out for CALL and LISTEN */
	uint8_t num;		/* name number: out for ADD (GROUP) NAME, in
				 * for datagrams and RECEIVE ANY (0xFF: any) */
	uint8_t *buffer;	/* data; CANCEL: see 'target' */
	uint16_t length;	/* in: buffer size; out: bytes in it */
	uint8_t callname[NB_NAME_LEN];	/* the remote name ('*': anyone /
					 * local); out: the sender's name */
	uint8_t name[NB_NAME_LEN];	/* a local name */
	uint8_t rto, sto;	/* CALL/LISTEN: receive and send timeouts of
				 * the session, in 500 ms units; 0: none */
	struct nb_ncb *target;	/* CANCEL: the command to cancel */
	nb_post_cb post;
	void *ctx;		/* for the POST routine */
	/* Out, beyond the classic NCB: the peer's IPX address (CALL,
	 * LISTEN, received datagrams, the first node FIND NAME found). */
	struct ipx_addr remote;

	/* Private to the NetBIOS module. */
	struct nb_ncb *next_;
	ipx_time started_;
	void *owner_;
	uint32_t filled_;
};

struct netbios;

/*
 * Submit a command. Returns NB_RC_PENDING when it will complete later
 * (post is then called exactly once), or its final return code (success
 * included) when it is done already; post is then not called.
 */
uint8_t nb_submit(struct netbios *nb, struct nb_ncb *ncb);

/*
 * The FIND NAME buffer: node count (2, LE), reserved (1), 0 unique or 1
 * group (1), then one IPX address per node (12 bytes as on the wire).
 */
enum { NB_FN_HDR_LEN = 4, NB_FN_ENTRY_LEN = 12 };

/* ---- the module ---- */

struct nb_options {
	unsigned names;		/* name table entries (default 16, 1..253) */
	unsigned cache_size;	/* resolved names kept (default 64) */
	ipx_time cache_lifetime;	/* how long (default 5 minutes) */
};

/* Why the NetBIOS module dropped a packet. */
#define NB_DROPS(X)                                                          \
	X(SHORT, "short", "too short for its data stream type")              \
	X(UNKNOWN, "unknown_type", "a data stream type we do not know")      \
	X(OWN, "own", "our own name-management broadcast, looped back")      \
	X(NOT_OURS, "not_ours", "for a name that is not in our table")       \
	X(NO_SESSION, "no_session", "for a session we do not have")         \
	X(WRONG_PEER, "wrong_peer", "session packet from another address")   \
	X(STALE_ID, "stale_id", "from the peer, with a session id not its own") \
	X(DUPLICATE, "duplicate", "session data we have already")            \
	X(SEQUENCE, "sequence", "session data out of sequence")             \
	X(FRAGMENT, "bad_fragment", "fragment offsets or lengths that disagree") \
	X(BUSY, "busy", "session data refused: no room until a RECEIVE")     \
	X(NO_RECEIVE, "no_receive", "datagram with no RECEIVE DATAGRAM pending") \
	X(UNEXPECTED, "unexpected", "an answer nobody asked for")

#define NB_DROP_ENUM_(id, name, desc) NB_DROP_##id,
enum nb_drop { NB_DROPS(NB_DROP_ENUM_) NB_DROP_COUNT };
#undef NB_DROP_ENUM_

const char *nb_drop_name(enum nb_drop d);

struct nb_stats {
	uint64_t packets_tx, packets_rx;	/* on socket 0x455 */
	uint64_t claims, claims_lost;	/* names claimed, lost to others */
	uint64_t defended;		/* objections we sent */
	uint64_t finds_tx, answers_rx;	/* find-name broadcasts, answers */
	uint64_t answers_tx;		/* name recognized sent */
	uint64_t cache_hits, cache_misses;
	uint64_t dgrams_tx, dgrams_rx;
	uint64_t sessions_opened, sessions_closed, sessions_aborted;
	uint64_t calls_rejected;	/* by us */
	uint64_t data_tx, data_rx;	/* session data packets */
	uint64_t bytes_tx, bytes_rx;	/* session data bytes */
	uint64_t retransmits;
	uint64_t acks_tx, acks_rx;
	uint64_t busy_tx, busy_rx;	/* "not ready" acks */
	uint64_t probes_tx, keepalives_tx;
	uint64_t no_resource;		/* commands refused with 0x09 */
	uint64_t drops[NB_DROP_COUNT];
};

/*
 * The NetBIOS module of a node, on socket 0x455, with the limits and
 * timers of the node's configuration (NETBIOS SESSIONS, COMMANDS, SEND
 * BUFFERS, RECEIVE BUFFERS, the timeouts, retries and broadcast count and
 * delay). IPX_EINUSE if the socket is taken, IPX_ESOCKFULL, IPX_ENOMEM.
 */
int nb_open(struct ipx_node *node, const struct nb_options *opts,
	    struct netbios **out);
/* Sessions dropped without a packet; pending commands are abandoned
 * without their POST. Not from inside a POST routine. */
void nb_close(struct netbios *nb);
const struct nb_stats *nb_get_stats(const struct netbios *nb);
void nb_print_stats(const struct netbios *nb, FILE *out);
struct ipx_node *nb_node(const struct netbios *nb);
/* Commands pending now (NETBIOS COMMANDS bounds it). */
unsigned nb_pending(const struct netbios *nb);
size_t nb_session_count(const struct netbios *nb);
/* The name cache: IPX_OK with the address a name resolved to, or
 * IPX_ENOTFOUND (nothing, or expired). */
int nb_cache_lookup(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		    struct ipx_addr *out, bool *group);
/* One session, as the module sees it. */
struct nb_session_info {
	uint8_t state;			/* NB_SS_* */
	uint16_t local_id, remote_id;	/* connection ids on the wire */
	struct ipx_addr remote;
	size_t max_data;		/* data per packet, both ways */
	uint16_t snd_seq, rcv_seq;	/* next to send, next expected */
};
/* IPX_ENOTFOUND if there is no session 'lsn'. */
int nb_session_info(const struct netbios *nb, uint8_t lsn,
		    struct nb_session_info *out);
/* End session 'lsn' at once for an interrupted program: a session end
 * goes out now (not after pending SENDs, not retried) so the peer learns
 * at once; the session's commands complete with NB_RC_SABORT. */
void nb_session_disconnect(struct netbios *nb, uint8_t lsn);

/*
 * Buffer layouts of ADAPTER STATUS (classic ADAPTER_STATUS, 60 bytes,
 * then one 18-byte NAME_BUFFER per name) and SESSION STATUS (a 4-byte
 * header, then one 36-byte SESSION_BUFFER per session). Words are
 * little-endian. Offsets:
 */
enum {
	NB_AS_ADDRESS = 0,		/* 6: the node address */
	NB_AS_REV_MAJOR = 6,
	NB_AS_TYPE = 8,			/* 0xFE (Ethernet-like) */
	NB_AS_REV_MINOR = 9,
	NB_AS_DURATION = 10,		/* minutes since the module opened */
	NB_AS_XMIT_SUCCESS = 20,	/* 4: packets sent */
	NB_AS_RECV_SUCCESS = 24,	/* 4: packets received */
	NB_AS_T1_TIMEOUTS = 32,		/* retransmissions */
	NB_AS_FREE_NCBS = 40,
	NB_AS_MAX_CFG_NCBS = 42,
	NB_AS_MAX_NCBS = 44,
	NB_AS_XMIT_BUF_UNAVAIL = 46,	/* commands refused with 0x09 */
	NB_AS_MAX_DGRAM = 48,
	NB_AS_PENDING_SESS = 50,
	NB_AS_MAX_CFG_SESS = 52,
	NB_AS_MAX_SESS = 54,
	NB_AS_MAX_SESS_PKT = 56,
	NB_AS_NAME_COUNT = 58,
	NB_AS_LEN = 60,
	NB_AS_NAME_LEN = 18,		/* name (16), number, flags */
	NB_SS_HDR_LEN = 4,		/* name number, sessions, datagram
					 * receives, RECEIVE ANYs pending */
	NB_SS_LEN = 36,			/* lsn, state, local name, remote
					 * name, receives, sends pending */
};

/* Name flags in ADAPTER STATUS: NB_NF_GROUP | one of these states. */
enum {
	NB_NAME_REGISTERING = 0x00,
	NB_NAME_REGISTERED = 0x04,
	NB_NAME_DEREGISTERED = 0x05,
};

/* Session states in SESSION STATUS. */
enum {
	NB_SS_LISTENING = 1,
	NB_SS_CALLING = 2,
	NB_SS_ACTIVE = 3,
	NB_SS_HANGING_UP = 4,
	NB_SS_HUNG_UP = 5,
	NB_SS_ABORTED = 6,
};

/* An ADAPTER STATUS buffer, decoded (for tools and tests). */
struct nb_adapter_status {
	uint8_t node[IPX_NODE_LEN];
	unsigned duration_min;
	uint32_t xmit, recv;
	unsigned retransmits, free_ncbs, max_ncbs, no_resource;
	unsigned max_dgram, sessions, max_sessions, max_sess_pkt;
	unsigned name_count;	/* as the header says */
	unsigned names_present;	/* entries actually in the buffer */
	struct {
		uint8_t name[NB_NAME_LEN];
		uint8_t num;
		uint8_t flags;
	} names[254];
};
/* IPX_ESHORT below 60 bytes; names beyond the buffer are not invented. */
int nb_adapter_status_decode(const uint8_t *p, size_t len,
			     struct nb_adapter_status *out);

#ifdef __cplusplus
}
#endif

#endif
