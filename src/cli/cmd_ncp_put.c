/*
 * cmd_ncp_put.c - "ipxlab ncp put": a local file or stdin to a remote
 * file, committed to the server's disk, a failed write resumed on a new
 * connection when the server moves.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd_ncp.h"
#include "ipxlab/err.h"

/* Is the remote path an existing directory? */
static bool remote_is_dir(struct session *s, const char *remote)
{
	struct ncp_entry e;

	return ncp_stat(s->cl, remote, &e) == 0 &&
	       (e.attr & NCP_ATTR_DIRECTORY);
}

/*
 * What stdin has (at most cap), waiting in slices with the loop run
 * between them: a signal stops a put from a terminal or a silent pipe
 * (it is read by the loop, not by a blocked read()). Bytes, 0 at the end,
 * -1 on an error, -2 on a signal.
 */
static ssize_t read_stdin(struct session *s, uint8_t *buf, size_t cap)
{
	for (;;) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int n = poll(&p, 1, 50);

		if (n > 0) {
			ssize_t r = read(STDIN_FILENO, buf, cap);

			if (r >= 0 || (errno != EINTR && errno != EAGAIN))
				return r;
		} else if (n < 0 && errno != EINTR) {
			return -1;
		}
		ipx_loop_run_once(s->cn.loop, 0);
		if (ipx_loop_stopped(s->cn.loop))
			return -2;
	}
}

/* The local file open for reading (its size in *st), or stdin checked
 * to have a remote name; CLI_OK, else the exit code. */
static int open_local(struct session *s, const char *local,
		      const char *remote, int *fd, struct stat *st)
{
	if (!strcmp(local, "-")) {
		if (!remote || !*ncp_path_name(remote) ||
		    remote_is_dir(s, remote)) {
			cli_error("ncp", "put -: stdin needs a remote file "
					 "name (put - SYS:DIR\\NAME)");
			return CLI_USAGE;
		}
		*fd = STDIN_FILENO;
		return CLI_OK;
	}
	*fd = open(local, O_RDONLY);
	if (*fd < 0 || fstat(*fd, st) < 0 || !S_ISREG(st->st_mode)) {
		fprintf(stderr, "ipxlab ncp: put: cannot read %s: %s\n", local,
			*fd < 0 ? strerror(errno) : "not a regular file");
		if (*fd >= 0)
			close(*fd);
		return CLI_FAIL;
	}
	if (st->st_size > 0xFFFFFFFFll) {
		fprintf(stderr, "ipxlab ncp: put: %s is larger than NCP's 4 "
				"GB\n",
			local);
		close(*fd);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* The remote name: as given, the local name, or the local name in the
 * remote directory (as cp). target holds it when it is built. */
static const char *remote_name(struct session *s, const char *local,
			       const char *remote, char *target, size_t cap)
{
	const char *lb = strrchr(local, '/');

	if (!remote)
		return lb ? lb + 1 : local;
	if (strcmp(local, "-") != 0 &&
	    (!*ncp_path_name(remote) || remote_is_dir(s, remote))) {
		snprintf(target, cap, "%s%s%s", remote,
			 *ncp_path_name(remote) ? "\\" : "",
			 lb ? lb + 1 : local);
		return target;
	}
	return remote;
}

/* Every chunk of fd written at its offset (again on a new connection
 * after a failure); 0 or the error, *off what the server acknowledged. */
static int copy_up(struct session *s, int fd, bool from_stdin, uint8_t *buf,
		   const char *remote, struct ncp_fh *fh, uint64_t size,
		   uint32_t *off)
{
	ipx_time t0 = ipx_loop_now(s->cn.loop);
	int rc = 0;

	for (;;) {
		ssize_t n = from_stdin ? read_stdin(s, buf, CHUNK)
				       : read(fd, buf, CHUNK);

		if (n < 0) {
			rc = n == -2 ? NCP_E_INTERRUPTED : NCP_E_LOCAL;
			break;
		}
		if (n == 0)
			break;
		for (;;) {
			rc = ncp_write(s->cl, fh, *off, buf, (size_t)n);
			if (rc && ncpc_recovered(s, &rc) &&
			    !(rc = ncp_open(s->cl, remote, NCP_OPEN_WRITE, fh)))
				continue;	/* this chunk again */
			break;
		}
		if (rc)
			break;
		*off += (uint32_t)n;
		ncpc_show_progress(s, remote, *off, size, t0, false);
	}
	ncpc_show_progress(s, remote, *off, size, t0, true);
	return rc;
}

int ncpc_put(struct session *s, const char *local, const char *remote)
{
	bool from_stdin = !strcmp(local, "-");
	char target[300];
	uint8_t *buf;
	struct ncp_fh fh;
	struct stat st = { 0 };
	uint32_t off = 0;
	int fd, rc;

	rc = open_local(s, local, remote, &fd, &st);
	if (rc != CLI_OK)
		return rc;
	remote = remote_name(s, local, remote, target, sizeof(target));
	if (ncp_check_path_on(s->cl, remote)) {
		if (!from_stdin)
			close(fd);
		return ncpc_fail("put", remote, NCP_E_NOT83);
	}
	buf = malloc(CHUNK);
	if (!buf) {
		close(fd);
		return ncpc_fail("put", remote, IPX_ENOMEM);
	}
	rc = ncp_open(s->cl, remote, NCP_OPEN_CREATE_DENY_WRITE, &fh);
	if (rc) {
		free(buf);
		if (!from_stdin)
			close(fd);
		if (rc == NCP_CC_LOCK_FAIL) {
			fprintf(stderr, "ipxlab ncp: put %s: refused, another "
					"connection has it open for writing "
					"(0x80 file in use); the file was not "
					"changed\n", remote);
			return CLI_FAIL;
		}
		return ncpc_fail("put", remote, rc);
	}
	rc = copy_up(s, fd, from_stdin, buf, remote, &fh, (uint64_t)st.st_size,
		     &off);
	if (!from_stdin)
		close(fd);
	free(buf);
	if (!rc)
		rc = ncp_commit(s->cl, &fh);	/* on the server's disk */
	if (rc) {
		fprintf(stderr, "ipxlab ncp: put %s: failed after %lu bytes "
				"acknowledged: %s\n",
			remote, (unsigned long)off, ncp_strerror(rc));
		ncpc_close_after(s, &fh, rc);
		return CLI_FAIL;
	}
	rc = ncp_close(s->cl, &fh);
	return rc ? ncpc_fail("put: close", remote, rc) : CLI_OK;
}
