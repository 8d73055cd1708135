/*
 * link_udp.h - the DOSBox-compatible IPX-over-UDP tunnel, client side.
 *
 * One UDP datagram carries one IPX packet. The client registers with the
 * server (a 30-byte header to socket 2), retrying with back-off, and takes
 * its network and node number from the reply; it answers DOSBox pings
 * (broadcasts to socket 2) itself. Receive and send are batched with
 * recvmmsg/sendmmsg; queued sends leave in the loop's before-sleep flush.
 */
#ifndef IPXLAB_LINK_UDP_H
#define IPXLAB_LINK_UDP_H

#include <netinet/in.h>
#include <stdint.h>

#include "ipxlab/clock.h"
#include "ipxlab/link.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_UDP_DEFAULT_PORT 213
/* DOSBox's IPXBUFFERSIZE: it drops anything larger. */
#define IPX_UDP_MTU 1424

struct ipx_udp_options {
	ipx_time register_timeout;	/* give up after this; 0 = 30 s */
	ipx_time retry_first;		/* first retry; 0 = 250 ms */
	ipx_time retry_max;		/* back-off cap; 0 = 2 s */
};

/*
 * Parse "HOST[:PORT]" (a name or dotted IPv4 address; default port 213)
 * into an IPv4 socket address. IPX_EINVAL for bad syntax, IPX_ERESOLVE if
 * the name does not resolve. err gets a message either way.
 */
int ipx_udp_resolve(const char *text, uint16_t default_port,
		    struct sockaddr_in *out, char *err, size_t errlen);

/*
 * Open a tunnel link to 'server' and start registering. The link comes up
 * (on_state) when the server answers; if it never does within the timeout
 * on_state reports down with link error IPX_ETIMEOUT, at the time-out
 * exactly (the back-off never waits past it). The caller says so: the
 * link only logs it at debug level.
 */
int ipx_udp_link_open(struct ipx_loop *loop, const struct sockaddr_in *server,
		      const struct ipx_udp_options *opts,
		      struct ipx_link **out);
/* Why a link went down (IPX_OK while it is fine). */
int ipx_udp_link_error(const struct ipx_link *link);
/* The server the link registers with. */
void ipx_udp_link_server(const struct ipx_link *link, struct sockaddr_in *out);
/* The local UDP address the link sends from. */
int ipx_udp_link_local(const struct ipx_link *link, struct sockaddr_in *out);
/* A registration request as DOSBox sends it: a bare 30-byte IPX header,
 * type echo (2), socket 2 both ways, no checksum. */
void ipx_udp_registration_encode(uint8_t pkt[IPX_HDR_LEN]);

#ifdef __cplusplus
}
#endif

#endif
