/*
 * bench_fsnet.h - the file-server benchmarks' network, the library side:
 * ipxlab's file server forked as a child of this process (as the harness
 * forks its hub and agents: no re-exec of the ipxlab binary, nothing of
 * the command line), on a hub the caller has, serving one SYS volume.
 */
#ifndef IPXLAB_BENCH_FSNET_H
#define IPXLAB_BENCH_FSNET_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/types.h>

#include "ipxlab/clock.h"

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
/* SIGTERM, then wait for it; *pid becomes 0 (nothing if it is 0). */
void ipx_fsrv_stop(pid_t *pid);

#ifdef __cplusplus
}
#endif

#endif
