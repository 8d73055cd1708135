/*
 * cmd_ncp_msg.c - the message and password commands of "ipxlab ncp":
 * send USER|CONN MESSAGE (0x15, to every connection of a user, or to one
 * connection number), messages (the one the server holds for us), passwd
 * (the keyed change of password; the new one asked on a terminal, else a
 * line of stdin), and the held message printed after any command whose
 * replies said one waits (docs/ncp.md).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_ncp.h"
#include "ipxlab/err.h"

static const char *send_status(uint8_t st)
{
	switch (st) {
	case 0x00:
		return "sent";
	case 0xFC:
		return "not sent: it holds a message already";
	case 0xFD:
		return "not sent: no such connection";
	case 0xFF:
		return "not sent: it refuses messages";
	default:
		return "not sent";
	}
}

static bool all_digits(const char *s)
{
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return *s != '\0';
}

int ncpc_send(struct session *s, const char *to, const char *msg)
{
	uint16_t conns[255];
	uint8_t st[255];
	size_t n = 1, sent = 0;
	int rc = 0;

	if (strlen(msg) > NCP_MSG_MAX) {
		cli_error("ncp", "send: a message is at most %d characters "
				 "(NetWare 3.x)", NCP_MSG_MAX);
		return CLI_USAGE;
	}
	if (all_digits(to)) {
		unsigned long v = strtoul(to, NULL, 10);

		if (v < 1 || v > 65535) {
			cli_error("ncp", "send: connection %s: 1 to 65535", to);
			return CLI_USAGE;
		}
		conns[0] = (uint16_t)v;
	} else {
		rc = ncp_user_connections(s->cl, to, conns, 255, &n);
		if (rc == NCP_CC_NO_OBJECT)
			return ncpc_fail("send: no such user", to, rc);
		if (!rc && n == 0)
			rc = NCP_E_NOTLOGGED;
	}
	if (!rc)
		rc = ncp_send_message(s->cl, conns, n, msg, st);
	if (rc)
		return ncpc_fail("send to", to, rc);
	for (size_t i = 0; i < n; i++) {
		printf("connection %u: %s\n", conns[i], send_status(st[i]));
		sent += st[i] == 0;
	}
	return sent ? CLI_OK : CLI_FAIL;
}

int ncpc_messages(struct session *s)
{
	char msg[260];
	int rc = ncp_get_message(s->cl, msg, sizeof(msg));

	if (rc)
		return ncpc_fail("messages", NULL, rc);
	if (msg[0])
		printf("%s\n", msg);
	else
		printf("(no message)\n");
	return CLI_OK;
}

int ncpc_passwd(struct session *s)
{
	char pw[130], again[130];
	const char *p = cli_ask_password("the new password", pw, sizeof(pw));
	int rc;

	if (p && (!cli_ask_password("the new password (again)", again,
				    sizeof(again)) || strcmp(pw, again))) {
		cli_error("ncp", "passwd: the two passwords differ");
		return CLI_FAIL;
	}
	if (!p) {
		if (!fgets(pw, sizeof(pw), stdin))
			pw[0] = '\0';
		pw[strcspn(pw, "\r\n")] = '\0';
	}
	if (strlen(pw) > 127) {
		cli_error("ncp", "passwd: at most 127 characters");
		return CLI_USAGE;
	}
	rc = ncp_change_password(s->cl, s->user, s->pass, pw);
	memset(pw, 0, sizeof(pw));
	memset(again, 0, sizeof(again));
	if (rc)
		return ncpc_fail("passwd for", s->user, rc);
	printf("password of %s changed\n", s->user);
	return CLI_OK;
}

void ncpc_show_held(struct session *s)
{
	char msg[260];

	if (s->cl && ncp_message_waiting(s->cl) &&
	    ncp_get_message(s->cl, msg, sizeof(msg)) == 0 && msg[0])
		fprintf(stderr, "ipxlab ncp: message: %s\n", msg);
}
