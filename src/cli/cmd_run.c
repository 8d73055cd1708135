/*
 * cmd_run.c - "ipxlab run -- PROGRAM ARGS...": start a program with the
 * AF_IPX shim preloaded and the path of "ipxlab stack" set
 * (docs/stack.md).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/stack_proto.h"

#define PRELOAD_NAME "libipxlab-preload.so"

enum { OPT_SOCKET = OPT_FIRST_CMD, OPT_PRELOAD };

void help_run(FILE *out)
{
	fprintf(out,
		"Run PROGRAM with AF_IPX sockets from 'ipxlab stack': the AF_IPX\n"
		"shim (" PRELOAD_NAME ") is preloaded and IPXLAB_STACK\n"
		"names the stack. Exits with the program's status (127: it could\n"
		"not be started).\n\n"
		"  --socket PATH       the stack's socket (default as 'ipxlab stack')\n"
		"  --preload FILE      the shim (default: beside the ipxlab binary,\n"
		"                      or $IPXLAB_PRELOAD)\n");
}

/* The shim: --preload, $IPXLAB_PRELOAD, or beside this binary. */
static int find_preload(const char *given, char *out, size_t cap)
{
	const char *env = getenv("IPXLAB_PRELOAD");
	char self[PATH_MAX - 64];
	ssize_t n;
	char *slash;

	if (given || (env && *env)) {
		snprintf(out, cap, "%s", given ? given : env);
	} else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n < 0)
			return -1;
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		snprintf(out, cap, "%s/%s", self, PRELOAD_NAME);
		if (access(out, R_OK) != 0)
			snprintf(out, cap, "%s/../lib/ipxlab/%s", self,
				 PRELOAD_NAME);
	}
	return access(out, R_OK) == 0 ? 0 : -1;
}

static bool stack_answers(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	bool ok;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	ok = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "preload", required_argument, NULL, OPT_PRELOAD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sock = NULL, *preload = NULL, *old;
	char path[108], lib[PATH_MAX], *both;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SOCKET:
			sock = optarg;
			break;
		case OPT_PRELOAD:
			preload = optarg;
			break;
		case 'h':
			cli_usage_line(stdout, "run");
			help_run(stdout);
			return CLI_OK;
		default:
			return cli_bad_option("run", argv, "+h", longopts);
		}
	}
	if (optind >= argc) {
		cli_error("run", "which program? ipxlab run [--socket PATH] -- "
				 "PROGRAM ARGS...");
		return CLI_USAGE;
	}
	if (sock)
		setenv("IPXLAB_STACK", sock, 1);
	if (ipx_stack_default_path(path, sizeof(path)) < 0) {
		cli_error("run", "the stack's socket path is too long");
		return CLI_USAGE;
	}
	if (find_preload(preload, lib, sizeof(lib)) < 0) {
		cli_error("run", "cannot find the AF_IPX shim %s (--preload "
				 "FILE)",
			  preload ? preload : PRELOAD_NAME);
		return CLI_FAIL;
	}
	if (!stack_answers(path))
		fprintf(stderr, "ipxlab run: no IPX stack at %s (AF_IPX sockets "
				"will fail with EAFNOSUPPORT): start one with "
				"'ipxlab stack --socket %s --hub HOST'\n",
			path, path);
	setenv("IPXLAB_STACK", path, 1);
	old = getenv("LD_PRELOAD");
	if (old && *old) {
		both = malloc(strlen(lib) + strlen(old) + 2);
		if (!both)
			return CLI_FAIL;
		sprintf(both, "%s:%s", lib, old);
		setenv("LD_PRELOAD", both, 1);
		free(both);
	} else {
		setenv("LD_PRELOAD", lib, 1);
	}
	execvp(argv[optind], argv + optind);
	cli_error("run", "cannot run %s: %s", argv[optind], strerror(errno));
	return 127;
}
