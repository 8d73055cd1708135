/*
 * sap.h - IPX SAP (socket 0x452): the packet codec and the service agent
 * (docs/sap.md, which names the public sources).
 *
 * Wire format (IPX payload, all fields big-endian, IPX packet type 4):
 *
 * Query, 4 bytes:
 *   off size field
 *     0    2 operation     1 = general query, 3 = nearest (GNS)
 *     2    2 server type   FFFF = every type
 *
 * Response, 2 + 64 bytes per entry, at most 7 entries (IPX length 480):
 *   off      size field
 *     0         2 operation     2 = general response / periodic, 4 = nearest
 *   2+64i+0     2 server type   4 = file server, ...
 *   2+64i+2    48 server name   ASCII, NUL-padded, at most 47 characters
 *   2+64i+50    4 network       } the service's address
 *   2+64i+54    6 node          }
 *   2+64i+60    2 socket        }
 *   2+64i+62    2 hops          networks to cross; 16 = going down
 *
 * Any node can advertise services: they are broadcast every 60 s on each
 * network (hops 1), and general and nearest queries about them are
 * answered. A router (the node forwarding) also keeps a table of what it
 * hears, re-advertises it on its other networks (one hop further, split
 * horizon), forgets entries not heard for 180 s, and passes a service
 * going down (hops 16) on at once.
 */
#ifndef IPXLAB_SAP_H
#define IPXLAB_SAP_H

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

#define IPX_SAP_MAX_ENTRIES 7
#define IPX_SAP_ENTRY_LEN 64
#define IPX_SAP_NAME_FIELD 48
#define IPX_SAP_NAME_MAX 47
#define IPX_SAP_QUERY_LEN 4
#define IPX_SAP_MAX_LEN (2 + IPX_SAP_MAX_ENTRIES * IPX_SAP_ENTRY_LEN)
#define IPX_SAP_DOWN 16
#define IPX_SAP_ANY_TYPE 0xFFFF
#define IPX_SAP_FILE_SERVER 0x0004

enum {
	IPX_SAP_GENERAL_QUERY = 1,
	IPX_SAP_GENERAL_RESPONSE = 2,
	IPX_SAP_NEAREST_QUERY = 3,
	IPX_SAP_NEAREST_RESPONSE = 4,
};

#define IPX_SAP_DROPS(X)                                                    \
	X(SHORT, "short", "fewer than 2 bytes")                             \
	X(BAD_OP, "bad_operation", "operation not 1 to 4")                  \
	X(BAD_LENGTH, "bad_length", "a query not 4 bytes, a response not 2 + 64 per entry") \
	X(EMPTY, "empty", "a response without entries")                     \
	X(TOO_MANY, "too_many_entries", "more than 7 entries")              \
	X(OWN, "own", "our own packet, looped back")                        \
	X(NOT_NEIGHBOUR, "not_neighbour", "a response that crossed a router (hops > 0): broadcast, or an answer nobody here waits for") \
	X(NOT_ROUTER, "not_router", "a response to a node that keeps no table") \
	X(BAD_ENTRY, "bad_entry", "an entry with a bad name, type 0/FFFF or network FFFFFFFF (skipped)") \
	X(TX, "tx_error", "a packet the node would not send")

#define IPX_SAP_DROP_ENUM_(id, name, desc) IPX_SAP_DROP_##id,
enum ipx_sap_drop { IPX_SAP_DROPS(IPX_SAP_DROP_ENUM_) IPX_SAP_DROP_COUNT };
#undef IPX_SAP_DROP_ENUM_

const char *ipx_sap_drop_name(enum ipx_sap_drop d);

struct ipx_sap_entry {
	uint16_t type;
	char name[IPX_SAP_NAME_FIELD];	/* NUL-terminated */
	struct ipx_addr addr;
	uint16_t hops;
};

struct ipx_sap_msg {
	uint16_t op;
	uint16_t query_type;	/* queries */
	size_t count;		/* good entries (responses) */
	size_t bad;		/* entries skipped as bad */
	struct ipx_sap_entry entries[IPX_SAP_MAX_ENTRIES];
};

/* A service name ipxlab accepts: 1 to 47 printable ASCII characters. */
bool ipx_sap_name_ok(const char *name);

/*
 * Decode a SAP payload. IPX_OK, or IPX_EINVAL with *why set. Bad entries
 * of a response are left out and counted in msg->bad.
 */
int ipx_sap_decode(const uint8_t *p, size_t len, struct ipx_sap_msg *out,
		   enum ipx_sap_drop *why);
/* Encode a query (op 1/3) or a response; bytes written, 0 if it cannot. */
size_t ipx_sap_encode(const struct ipx_sap_msg *msg, uint8_t *out,
		      size_t cap);

struct ipx_sap_options {
	bool router;		/* keep a table and re-advertise it */
	ipx_time period;	/* broadcasts; 0 = 60 s */
	ipx_time expiry;	/* an entry not heard this long goes; 0 = 180 s */
};

struct ipx_sap_stats {
	uint64_t rx_queries, rx_responses;
	uint64_t tx_queries, tx_responses;	/* packets */
	uint64_t learned;	/* entries added or moved to a nearer copy */
	uint64_t changed;	/* same source, new hops or address */
	uint64_t down;		/* removed by a going-down entry */
	uint64_t expired;	/* removed after silence */
	uint64_t drops[IPX_SAP_DROP_COUNT];
};

struct ipx_sap;

/* Called with every valid response: from a neighbour, or one sent to us
 * alone across routers (the answer to a query to a far node, which the
 * table never learns from). */
typedef void (*ipx_sap_response_cb)(const struct ipx_header *hdr,
				    const struct ipx_sap_msg *msg, void *ctx);

/* Start the agent on socket 0x452 (IPX_EINUSE if it is taken). A router
 * broadcasts a general query to fill its table. */
int ipx_sap_new(struct ipx_node *node, const struct ipx_sap_options *opts,
		struct ipx_sap **out);
void ipx_sap_free(struct ipx_sap *sap);
/* Going down: our services (a router: every entry) with 16 hops, on every
 * link. */
void ipx_sap_shutdown(struct ipx_sap *sap);

/*
 * Advertise a service of this node: at its address (ipx_node_address)
 * with 'socket', broadcast now and every period. IPX_EINVAL for a bad
 * name or type 0/FFFF, IPX_EINUSE if this type and name exist already.
 */
int ipx_sap_advertise(struct ipx_sap *sap, uint16_t type, const char *name,
		      uint16_t socket);
/* Stop advertising: broadcast with 16 hops and remove. */
int ipx_sap_withdraw(struct ipx_sap *sap, uint16_t type, const char *name);

/* Broadcast a query (IPX_SAP_GENERAL_QUERY or _NEAREST_QUERY) on every
 * link, or send it to one node. */
int ipx_sap_query(struct ipx_sap *sap, uint16_t op, uint16_t type);
int ipx_sap_query_to(struct ipx_sap *sap, const struct ipx_addr *to,
		     uint16_t op, uint16_t type);
void ipx_sap_on_response(struct ipx_sap *sap, ipx_sap_response_cb cb,
			 void *ctx);

/* The table: our services (hops 0) and, for a router, what it heard. */
size_t ipx_sap_count(const struct ipx_sap *sap);
const struct ipx_sap_entry *ipx_sap_at(const struct ipx_sap *sap, size_t i);
/* The entry of 'type' (FFFF: any) with the fewest hops. */
int ipx_sap_nearest(const struct ipx_sap *sap, uint16_t type,
		    struct ipx_sap_entry *out);
const struct ipx_sap_stats *ipx_sap_stats(const struct ipx_sap *sap);
void ipx_sap_print(const struct ipx_sap *sap, FILE *out);
/* "file server", "print server", ... or NULL. */
const char *ipx_sap_type_name(uint16_t type);

#ifdef __cplusplus
}
#endif

#endif
