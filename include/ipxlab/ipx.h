/*
 * ipx.h - IPX addresses and the 30-byte IPX header.
 *
 * Wire format (all fields big-endian, offsets in bytes):
 *
 *   off size field
 *     0    2 checksum          0xFFFF = none (the only value ipxlab sends)
 *     2    2 length            whole packet, header included, >= 30
 *     4    1 transport control hop count; routers discard at 16
 *     5    1 packet type       see enum ipx_type
 *     6    4 destination network   0 = this network
 *    10    6 destination node      FF..FF = broadcast
 *    16    2 destination socket
 *    18    4 source network
 *    22    6 source node
 *    28    2 source socket
 */
#ifndef IPXLAB_IPX_H
#define IPXLAB_IPX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_HDR_LEN 30
#define IPX_NODE_LEN 6
#define IPX_MAX_HOPS 16
#define IPX_NO_CHECKSUM 0xFFFF
/* Longest text of an address: "NNNNNNNN:XXXXXXXXXXXX:SSSS" plus NUL. */
#define IPX_ADDR_STRLEN 27

enum ipx_type {
	IPX_TYPE_UNKNOWN = 0,
	IPX_TYPE_RIP = 1,
	IPX_TYPE_ECHO = 2,
	IPX_TYPE_ERROR = 3,
	IPX_TYPE_PEP = 4,
	IPX_TYPE_SPX = 5,
	IPX_TYPE_NCP = 17,
	IPX_TYPE_NETBIOS = 20,
};

/* Well-known sockets. */
enum {
	IPX_SOCK_ECHO = 0x0002,	/* also the DOSBox tunnel's control socket */
	IPX_SOCK_NCP = 0x0451,
	IPX_SOCK_SAP = 0x0452,
	IPX_SOCK_RIP = 0x0453,
	IPX_SOCK_NETBIOS = 0x0455,
	IPX_SOCK_DIAG = 0x0456,
	IPX_SOCK_DYNAMIC_MIN = 0x4000,
	IPX_SOCK_DYNAMIC_MAX = 0x7FFF,
	IPX_SOCK_PING = 0x9086,
};

struct ipx_addr {
	uint32_t net;
	uint8_t node[IPX_NODE_LEN];
	uint16_t socket;
};

struct ipx_header {
	uint16_t checksum;
	uint16_t length;
	uint8_t hops;		/* transport control */
	uint8_t type;
	struct ipx_addr dst;
	struct ipx_addr src;
};

extern const uint8_t ipx_node_broadcast[IPX_NODE_LEN];
extern const uint8_t ipx_node_zero[IPX_NODE_LEN];

bool ipx_node_is_broadcast(const uint8_t node[IPX_NODE_LEN]);
bool ipx_node_is_zero(const uint8_t node[IPX_NODE_LEN]);
bool ipx_node_eq(const uint8_t a[IPX_NODE_LEN], const uint8_t b[IPX_NODE_LEN]);
bool ipx_addr_eq(const struct ipx_addr *a, const struct ipx_addr *b);
/*
 * The same peer: node and socket equal, networks equal or one of them 0.
 * A node sends network 0 until it learns its number, then the number, so
 * a session's peer may show both (docs/routing.md).
 */
bool ipx_addr_match(const struct ipx_addr *a, const struct ipx_addr *b);

/*
 * Parse "NET:NODE:SOCKET" (':' or '.' between the parts), hex digits:
 * NET 1-8 digits, NODE 1-12 digits (or six bytes joined by '-'),
 * SOCKET 1-4 digits, an optional "0x" on each. Returns IPX_OK or
 * IPX_EINVAL.
 */
int ipx_addr_parse(const char *text, struct ipx_addr *out);
/* Format as "NNNNNNNN:XXXXXXXXXXXX:SSSS"; returns out. */
char *ipx_addr_format(const struct ipx_addr *addr, char out[IPX_ADDR_STRLEN]);
/* The node alone as 12 hex digits. */
char *ipx_node_format(const uint8_t node[IPX_NODE_LEN], char out[13]);
/* Parse a socket number in hex ("4545", "0x4545"). */
int ipx_socket_parse(const char *text, uint16_t *out);

/*
 * Decode and validate the header of a received packet of 'len' bytes:
 * IPX_ESHORT below 30 bytes, IPX_EBADLEN if the length field is below 30 or
 * beyond the packet. Bytes past the length field (link padding) are not an
 * error: the caller must use hdr->length, not len.
 */
int ipx_header_decode(const uint8_t *pkt, size_t len, struct ipx_header *hdr);
/* Write a header into 30 bytes (checksum written as given). */
void ipx_header_encode(const struct ipx_header *hdr, uint8_t *out);

void ipx_addr_read(const uint8_t *p, struct ipx_addr *addr);
void ipx_addr_write(uint8_t *p, const struct ipx_addr *addr);

/* The IPX checksum (one's complement over the packet, hops masked). */
uint16_t ipx_checksum(const uint8_t *pkt, size_t len);

#ifdef __cplusplus
}
#endif

#endif
