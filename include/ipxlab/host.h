/*
 * host.h - a period machine (machine.h) applied to a node in simulated
 * time, the way a link profile is applied to the wire: the host sits
 * between the node and its link, and every packet the node sends or
 * receives takes the machine's CPU time before it goes on (docs/
 * fidelity.md, "The host").
 *
 *   CPU    one per host, first come first served: a packet's time is its
 *          IPX send or receive, the protocol above (SPX, the NetBIOS
 *          emulator, the shell per NCP request and reply, the file server
 *          per NCP request kind, a burst packet), and the copy of its
 *          bytes at the machine's copy rate. ipx_host_work adds a
 *          program's own work (a start-up) to the queue.
 *   disk   one per host, beside the CPU: a read of blocks the cache does
 *          not hold costs a seek and their transfer; cached blocks cost
 *          nothing; writes go into the cache and reach the disk behind
 *          (the disk is busy, nobody waits), except a server's
 *          directory writes (ipx_host_disk_sync), which it waits for.
 *          The packets a node sends while it handles one received
 *          packet (the reply to a request) wait for the disk time that
 *          handling asked for; the CPU serves other packets meanwhile.
 *
 * The adapter's copies and buffers are the link's (ipx_mem_link_set_
 * adapter). Costs are in nanoseconds, times the loop's; the same run
 * gives the same times, packet for packet.
 */
#ifndef IPXLAB_HOST_H
#define IPXLAB_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/link.h"
#include "ipxlab/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_host_stats {
	uint64_t cpu_ns;		/* CPU busy, in all */
	uint64_t disk_ns;		/* disk busy, in all */
	uint64_t tx_packets, rx_packets;
	uint64_t cache_hits, cache_misses;	/* blocks read */
	uint64_t disk_reads, disk_writes;	/* requests that used it */
	uint64_t work_ns;		/* of that CPU time: ipx_host_work */
};

struct ipx_host;

/*
 * Put machine m between a node and 'inner' (a link not yet given to a
 * node): the node gets ipx_host_link(h) instead, and closing that closes
 * inner and frees the host. 'server': the node is the file server (an
 * NCP request received costs the server's time for its kind; else the
 * shell's per request sent and reply received). NULL on no memory.
 */
struct ipx_host *ipx_host_new(struct ipx_link *inner,
			      const struct ipx_machine *m, bool server);
struct ipx_link *ipx_host_link(struct ipx_host *h);
/* The link it wraps (its adapter, its own MTU): for a caller that sets
 * the adapter after the node is built (B9), then the host link's MTU. */
struct ipx_link *ipx_host_inner(struct ipx_host *h);
const struct ipx_machine *ipx_host_machine(const struct ipx_host *h);
/* The host of a node's link, or NULL (the link has none). */
static inline struct ipx_host *ipx_link_host(const struct ipx_link *l)
{
	return l ? l->host : NULL;
}

/* CPU time for a program's own work, queued now: what the node sends
 * after this waits for it. */
void ipx_host_work(struct ipx_host *h, uint64_t ns);

/*
 * The disk for 'len' bytes of file 'file' (any number naming it, e.g.
 * its inode) at 'off'. A read: the blocks not cached cost one seek and
 * their transfer at the disk rate, queued behind the disk's other work;
 * what the node sends while it handles the current packet waits for it.
 * A write: its blocks go into the cache and the disk is busy for them,
 * nobody waits. Returns the nanoseconds the caller waits (0: all
 * cached, a write, or no disk in the machine).
 */
uint64_t ipx_host_disk(struct ipx_host *h, uint64_t file, uint64_t off,
		       uint64_t len, bool write);

/*
 * Blocks written to the disk at once, the node waiting (a file server's
 * directory and FAT on a create or an erase: ipx_machine_dir_writes): a
 * seek and one cache block's transfer each (a 512-byte sector on a
 * machine without a cache), queued behind the disk's
 * other work; what the node sends while it handles the current packet
 * waits for them, like a read that missed. Returns the nanoseconds the
 * caller waits (0 without a disk or for 0 blocks).
 */
uint64_t ipx_host_disk_sync(struct ipx_host *h, unsigned blocks);

/* The CPU time the machine gives one packet (what the host charges). */
uint64_t ipx_host_packet_ns(const struct ipx_machine *m, bool server,
			    bool tx, const uint8_t *pkt, size_t len);

const struct ipx_host_stats *ipx_host_stats(const struct ipx_host *h);
void ipx_host_reset_stats(struct ipx_host *h);

#ifdef __cplusplus
}
#endif

#endif
