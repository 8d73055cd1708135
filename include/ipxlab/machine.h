/*
 * machine.h - period machines: what a 1990 workstation or file server
 * costs in simulated time (docs/fidelity.md explains the model and every
 * figure). Plain data, like a link profile, in four kinds of file:
 *
 *   software  the CPU time of one program's operations on the reference
 *             machine (an 8 MHz 80286): IPX send and receive, SPX and the
 *             NetBIOS emulator on top, the workstation shell per request
 *             and reply, the file server per NCP request kind, a
 *             program's start-up;
 *   adapter   a network adapter: its bus copy rate and its buffers
 *             (struct ipx_adapter, link_profile.h);
 *   machine   a CPU's speed against the reference, its memory copy rate,
 *             its disk (seek, transfer, cache), its adapter and the
 *             software it runs;
 *   period    a whole 1990 set-up: the wire (a link profile), the bridge
 *             if any, the file server's and the workstations' machines
 *             (with server-adapter, station-adapter, server-software and
 *             station-software in place of the machine's own), and what
 *             the period client negotiated (its largest IPX packet).
 *
 * A wire or bridge is a named link profile (link_profile.h), a profile
 * of machines/ (NAME.profile, built in too), or a file NAME.profile
 * beside the period file.
 * Files are "key value" lines with '#' comments; the first setting is
 * "kind KIND", then optionally "base NAME" (a named one of the same kind
 * to start from). Names in a file (adapter, software, server, ...) are
 * the named ones built into ipxlab from its machines/ folder, or else
 * files NAME.KIND beside the file that names them. Errors read
 * "FILE:LINE: what is wrong". The host (host.h) is what applies a
 * machine to a node.
 */
#ifndef IPXLAB_MACHINE_H
#define IPXLAB_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/link_profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The operations a program's CPU time is given for. */
enum ipx_cost_op {
	IPX_COST_IPX_SEND,	/* one IPX packet handed to the driver */
	IPX_COST_IPX_RECV,	/* one IPX packet taken from the driver */
	IPX_COST_SPX_SEND,	/* SPX on top of IPX, per packet */
	IPX_COST_SPX_RECV,
	IPX_COST_NB_DGRAM_SEND,	/* the NetBIOS emulator on top: datagrams */
	IPX_COST_NB_DGRAM_RECV,	/* (and name packets), per packet */
	IPX_COST_NB_SESSION_SEND, /* session packets (data, acks) */
	IPX_COST_NB_SESSION_RECV,
	IPX_COST_SHELL_REQUEST,	/* the workstation shell, per NCP request */
	IPX_COST_SHELL_REPLY,	/* ... per reply (and burst packet) */
	IPX_COST_NCP_OPEN,	/* the file server, per request kind */
	IPX_COST_NCP_CLOSE,
	IPX_COST_NCP_READ,
	IPX_COST_NCP_WRITE,
	IPX_COST_NCP_CREATE,
	IPX_COST_NCP_DELETE,
	IPX_COST_NCP_SEARCH,
	IPX_COST_NCP_LOCK,
	IPX_COST_NCP_BURST,	/* one packet of a burst, either way */
	IPX_COST_NCP_OTHER,
	IPX_COST_START,		/* a program's own start-up (DOS EXEC) */
	IPX_COST_APP_ITEM,	/* its own work on one item it handles (B8:
				 * the viewer's decode and display of an
				 * image); the workload charges it */
	IPX_COST_OPS
};

/* The key of an operation in a software file ("ipx-send"), or "?". */
const char *ipx_cost_op_key(enum ipx_cost_op op);

#define IPX_MACHINE_NAME 32
#define IPX_MACHINE_WHAT 120
#define IPX_MACHINE_MAX_SOFTWARE 6

struct ipx_software {
	char name[IPX_MACHINE_NAME];
	char what[IPX_MACHINE_WHAT];
	/* Nanoseconds of CPU per operation on the reference machine; each
	 * operation the program does not do is 0. */
	uint64_t cost_ns[IPX_COST_OPS];
	/* Bytes a program's start-up reads from the server (the program
	 * file the shell loads), 0: none. */
	uint32_t start_bytes;
	/* A shell's cache blocks for non-shared files (NETx's CACHE
	 * BUFFERS: bench_shellcache.h), 0: none. */
	uint32_t cache_buffers;
	/* Bytes per second that shell moves a fetched block into its cache
	 * on the reference machine (a faster machine moves them faster, by
	 * its speed), 0: free. */
	uint64_t cache_fill_rate;
	/* A file server's blocks written to its disk at once, the request
	 * waiting, when a request changes a directory (a create, an erase):
	 * its directory entry and its FAT; 0: write-behind like data. */
	uint32_t dir_writes;
};

struct ipx_adapter_model {
	char name[IPX_MACHINE_NAME];
	char what[IPX_MACHINE_WHAT];
	uint32_t bus;			/* 8, 16 or 32 bits (for the reader) */
	struct ipx_adapter adapter;	/* what the link applies */
};

struct ipx_machine {
	char name[IPX_MACHINE_NAME];
	char what[IPX_MACHINE_WHAT];
	/* Speed against the reference machine (8 MHz 80286 = 1): every
	 * software cost is divided by it. */
	double speed;
	/* Bytes per second the CPU copies packet data between a program's
	 * buffer and the driver's, per packet sent or received; 0: free. */
	uint64_t copy_rate;
	/* The disk: average seek plus rotation, and the transfer rate
	 * (bytes/s); 0 seek and 0 rate: no disk time. The cache: bytes of
	 * memory holding disk blocks of cache_block bytes, least recently
	 * used out first; a read of cached blocks costs no disk time. */
	uint64_t seek_ns;
	uint64_t disk_rate;
	uint32_t cache;
	uint32_t cache_block;
	bool have_adapter;
	struct ipx_adapter_model adapter;
	unsigned nsoftware;
	struct ipx_software software[IPX_MACHINE_MAX_SOFTWARE];
};

struct ipx_period {
	char name[IPX_MACHINE_NAME];
	char what[IPX_MACHINE_WHAT];
	struct ipx_profile wire;
	bool have_wan;
	struct ipx_profile wan;		/* the bridge modules, when bridged */
	struct ipx_machine server, station;
	/* The largest IPX packet the period workstation sends (its shell's
	 * negotiated buffer); 0: the wire's. */
	uint32_t max_packet;
};

/* A software operation's cost on a machine, in nanoseconds: the sum over
 * its software of that cost, divided by its speed. */
uint64_t ipx_machine_cost_ns(const struct ipx_machine *m,
			     enum ipx_cost_op op);
/* Nanoseconds the machine takes to copy len bytes (0 when free). */
uint64_t ipx_machine_copy_ns(const struct ipx_machine *m, size_t len);
/* Bytes its programs' start-up reads from the server. */
uint32_t ipx_machine_start_bytes(const struct ipx_machine *m);
/* Its shell's cache blocks for non-shared files (the largest any of its
 * software sets), 0: no such cache. */
uint32_t ipx_machine_cache_buffers(const struct ipx_machine *m);
/* Nanoseconds its shell takes to move len fetched bytes into that cache
 * (its software's cache-fill rate times its speed; 0 when free). */
uint64_t ipx_machine_cache_fill_ns(const struct ipx_machine *m, size_t len);
/* Its server software's synchronous writes per directory change (the
 * largest any of its software sets), 0: none. */
uint32_t ipx_machine_dir_writes(const struct ipx_machine *m);

/* The named ones, for help text: "tr-1990, netware-1990, ..." */
const char *ipx_period_names(void);
/* Every named file of one kind ("period", "machine", "adapter",
 * "software"), comma-separated, into buf. */
void ipx_machine_names(const char *kind, char *buf, size_t len);

/*
 * Parse a file's text ('file' names it in messages; 'dir' is where names
 * it gives that are not built in are looked for, NULL: nowhere). err
 * gets "FILE:LINE: what is wrong". IPX_OK or IPX_ECONFIG.
 */
int ipx_period_parse(const char *text, size_t len, const char *file,
		     const char *dir, struct ipx_period *out, char *err,
		     size_t errlen);
int ipx_machine_parse(const char *text, size_t len, const char *file,
		      const char *dir, struct ipx_machine *out, char *err,
		      size_t errlen);
/*
 * What --period takes: a named period, or else a period file. err says
 * which names exist when 'spec' is neither. IPX_OK, IPX_ENOTFOUND,
 * IPX_EIO or IPX_ECONFIG.
 */
int ipx_period_resolve(const char *spec, struct ipx_period *out, char *err,
		       size_t errlen);
/* A named machine (or a file NAME.machine), for tests and tools. */
int ipx_machine_resolve(const char *spec, struct ipx_machine *out, char *err,
			size_t errlen);

/* The built-in text of a named file of a kind, or NULL. */
const char *ipx_machine_text(const char *kind, const char *name);

/* Print what a period amounts to: the wire, then each machine with its
 * speed, disk, adapter and every operation's cost on it. */
void ipx_period_print(const struct ipx_period *p, FILE *out);
/* role "server" or "station": indented under a period; NULL or "":
 * alone. */
void ipx_machine_print(const struct ipx_machine *m, const char *role,
		       FILE *out);

#ifdef __cplusplus
}
#endif

#endif
