/*
 * bench_fsnet.h - the file-server benchmarks' network, the library side:
 * ipxlab's file server forked as a child of this process (as the harness
 * forks its hub and agents: no re-exec of the ipxlab binary, nothing of
 * the command line), on a hub the caller has, serving one SYS volume;
 * and B6's WAN bridge to a far hub, forked the same way.
 */
#ifndef IPXLAB_BENCH_FSNET_H
#define IPXLAB_BENCH_FSNET_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/types.h>

#include "ipxlab/clock.h"
#include "ipxlab/link_profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Fork the file server 'name' serving the directory 'dir' as volume SYS,
 * joined to the hub at 'hub' (within 'wait'). It serves until SIGTERM or
 * until this process dies; its stdio is /dev/null (errors show as the run
 * failing, or in the report of a server that did not start). IPX_OK with
 * *pid once it is up, or an error with a message (nothing left running).
 */
int ipx_fsrv_fork(const struct sockaddr_in *hub, const char *name,
		  const char *dir, ipx_time wait, pid_t *pid, char *err,
		  size_t errlen);
/* The same with the largest buffer a client may negotiate (0: the
 * server's default; 512 behind a 576-byte bridge). */
int ipx_fsrv_fork_buf(const struct sockaddr_in *hub, const char *name,
		      const char *dir, unsigned max_buffer, ipx_time wait,
		      pid_t *pid, char *err, size_t errlen);

/*
 * Fork the WAN bridge of profile 'trunk' (wan.h; ipx_profile_check'ed,
 * with buffers) between the hub at 'near' (joined as a bridge port) and
 * a hub it serves on 127.0.0.1 at a free port (*far), a segment of
 * 'segment' (NULL: none). IPX_OK with *pid once the far hub is open (the
 * port joins on its own), or an error with a message. Stop it with
 * ipx_fsrv_stop.
 */
int ipx_wanbr_fork(const struct sockaddr_in *near,
		   const struct ipx_profile *trunk,
		   const struct ipx_profile *segment, ipx_time wait,
		   struct sockaddr_in *far, pid_t *pid, char *err,
		   size_t errlen);
/* SIGTERM, then wait for it; *pid becomes 0 (nothing if it is 0). */
void ipx_fsrv_stop(pid_t *pid);

#ifdef __cplusplus
}
#endif

#endif
