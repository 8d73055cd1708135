/*
 * main.c - ipxlab's entry point: find the subcommand in the table and run
 * it. The command list in --help comes from the same table.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
/* IPXLAB_VERSION, IPXLAB_COMMIT and IPXLAB_DOCDIR, written by the
 * Makefile. */
#include "version.h"

static const struct cli_cmd cli_commands[] = {
	{ "hub", "[--port 213] [--bind ADDR] [options]",
	  "run a DOSBox-compatible IPX tunnel server", cmd_hub, help_hub },
	{ "bridge", "A B [--profile isn|FILE] [options]",
	  "the 1990 bridged WAN: two segments over a slow trunk", cmd_bridge,
	  help_bridge },
	{ "listen", "[SOCKET] [options]",
	  "print every datagram that arrives on a socket", cmd_listen,
	  help_listen },
	{ "send", "ADDR [options]", "send each line of stdin as a datagram",
	  cmd_send, help_send },
	{ "ping", "[ADDR] [options]",
	  "Novell ping to ADDR; without ADDR, DOSBox's broadcast echo",
	  cmd_ping, help_ping },
	{ "spx", "listen [SOCKET] | connect ADDR [options]",
	  "netcat over an SPX / SPX II session", cmd_spx, help_spx },
	{ "netbios", "add|find|status|send|recv|listen|call [NAME...] [options]",
	  "NetBIOS over IPX: names, datagrams, sessions", cmd_netbios,
	  help_netbios },
	{ "config", "[FILE]", "print the effective SHELL.CFG settings",
	  cmd_config, help_config },
	{ "demo", "[options]",
	  "a hub and two nodes on loopback exchanging datagrams", cmd_demo,
	  help_demo },
	{ "bench", bench_synopsis,
	  "benchmarks (not tests); bare: the protocol comparison (B1)",
	  cmd_bench, help_bench },
	{ "agent", "[--name NAME] [options]",
	  "a benchmark agent that controllers find by SAP", cmd_agent,
	  help_agent },
	{ "router", "--link SPEC --link SPEC... [options]",
	  "an IPX router between networks (RIP, SAP)", cmd_router,
	  help_router },
	{ "routes", "[ADDR] [options]", "the routes the routers tell (RIP)",
	  cmd_routes, help_routes },
	{ "slist", "[options]", "list the file servers that answer (SAP)",
	  cmd_slist, help_slist },
	{ "sap", "[ADDR] [--type T] [options]",
	  "the services the network advertises (SAP)", cmd_sap, help_sap },
	{ "advertise", "TYPE NAME SOCKET [options]",
	  "announce a service of this node by SAP until stopped",
	  cmd_advertise, help_advertise },
	{ "diag", "[ADDR|--broadcast] [options]",
	  "IPX diagnostics: what answers and with what", cmd_diag, help_diag },
	{ "server", "--volume SYS=DIR [--volume NAME=DIR[,ro]]... [options]",
	  "a NetWare file server (NCP) serving host directories",
	  cmd_server, help_server },
	{ "ncp", "[--server NAME] [-u USER -p PW] ls|get|put|rm|mkdir|rmdir|mv|stat|info|whoami|send|messages|passwd|rights|grant|revoke ...",
	  "a NetWare client: list, copy, remove files on a server",
	  cmd_ncp, help_ncp },
	{ "mount", "[--server NAME] [--user U] [--password-file F] VOLUME MOUNTPOINT",
	  "mount a NetWare volume on Linux (FUSE)", cmd_mount, help_mount },
	{ "capture", "[--hub H | --link eth:IFACE] [-w FILE] [options]",
	  "print a line per IPX packet seen (and write a pcap)", cmd_capture,
	  help_capture },
	{ "profile", "[NAME|FILE]",
	  "print a link profile (eth10, tr4, tr16, isn, or a file)",
	  cmd_profile, help_profile },
	{ "period", "[NAME|FILE]",
	  "print a period set-up: its wire and machines, every cost (--period)",
	  cmd_period, help_period },
	{ "analyze", "FILE [--between NODE,NODE] [--json]",
	  "Kbyte/s, protocols and arrival gaps of a pcap (the 1990 analyzer)",
	  cmd_analyze, help_analyze },
	{ "stack", "[--hub H | --link SPEC...] [--socket PATH] [options]",
	  "the host's IPX layer for AF_IPX programs", cmd_stack, help_stack },
	{ "run", "[--socket PATH] -- PROGRAM ARGS...",
	  "run a program with AF_IPX sockets from the stack", cmd_run,
	  help_run },
	{ NULL, NULL, NULL, NULL, NULL },
};

static const struct cli_cmd *cli_find(const char *name)
{
	for (const struct cli_cmd *c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void usage(FILE *out)
{
	int w = 0;	/* the command column: the longest name */

	fprintf(out,
		"ipxlab %s - the NetWare-era IPX LAN in user space\n\n"
		"usage: ipxlab COMMAND [options]\n\n"
		"commands:\n",
		IPXLAB_VERSION);
	for (const struct cli_cmd *c = cli_commands; c->name; c++)
		if ((int)strlen(c->name) > w)
			w = (int)strlen(c->name);
	for (const struct cli_cmd *c = cli_commands; c->name; c++)
		fprintf(out, "  %-*s  %s\n", w, c->name, c->summary);
	fprintf(out, "\n'ipxlab COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;

	cli_set_commands(cli_commands);
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && !(c = cli_find(argv[2]))) {
			fprintf(stderr, "ipxlab: unknown command '%s'\n\n",
				argv[2]);
			usage(stderr);
			return CLI_USAGE;
		}
		if (argc > 2) {
			cli_usage_line(stdout, c->name);
			c->help(stdout);
			return CLI_OK;
		}
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("ipxlab %s (commit %s)\n", IPXLAB_VERSION,
		       IPXLAB_COMMIT);
		return CLI_OK;
	}
	c = cli_find(argv[1]);
	if (!c) {
		fprintf(stderr, "ipxlab: unknown command '%s'\n\n", argv[1]);
		usage(stderr);
		return CLI_USAGE;
	}
	cli_current = c->name;
	opterr = 0;	/* commands say what was wrong (cli_bad_option) */
	return c->run(argc - 1, argv + 1);
}
