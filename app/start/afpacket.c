/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The af_packet PMD's fanout group, checked before EAL. The PMD puts
 * every socket of a port into the fanout group whose id is the process
 * id xor the interface's index (16 bits), with hash, defrag and rollover.
 * Groups are per network namespace: when another process already holds
 * that id for another interface (two DPDK processes on af_packet ports
 * whose ids happen to match), the kernel refuses the socket (EINVAL),
 * the port is not probed, and the run would only say it has no ports.
 * The same setsockopt() on a socket of our own, closed at once, tells
 * first, and the error names the cause.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/exitcode.h"
#include "eal.h"

/* The fanout type and flags the PMD asks for. */
#define FANOUT_FLAGS (PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_DEFRAG | \
	PACKET_FANOUT_FLAG_ROLLOVER)

/* The fanout group id the PMD takes for interface ifindex. */
static unsigned int
fanout_id(unsigned int ifindex)
{
	return ((unsigned int)getpid() ^ ifindex) & 0xffff;
}

/*
 * Whether the kernel refuses our socket on ifindex (named name) a place
 * in the group the PMD will ask for. False when it cannot tell (no
 * CAP_NET_RAW, no such interface, the interface down: some kernels
 * refuse a fanout to a socket that is not running, a refusal that says
 * nothing of other processes): the PMD reports those itself.
 */
static bool
fanout_taken(unsigned int ifindex, const char *name)
{
	struct sockaddr_ll sll;
	struct ifreq ifr;
	int fd, arg, rc, err;

	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, strnlen(name, IF_NAMESIZE - 1));
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0 || !(ifr.ifr_flags & IFF_UP)) {
		close(fd);
		return false;
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)ifindex;
	if (bind(fd, (const struct sockaddr *)&sll, sizeof(sll)) != 0) {
		close(fd);
		return false;
	}
	arg = (int)(fanout_id(ifindex) | (unsigned int)FANOUT_FLAGS << 16);
	rc = setsockopt(fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg));
	err = errno;
	close(fd);
	return rc != 0 && err == EINVAL;
}

/* The iface= value of an af_packet --vdev into name; false for another
 * device or none given. */
static bool
afpacket_iface(const char *vdev, char *name, size_t size)
{
	const char *p;
	size_t n;

	if (strncmp(vdev, "net_af_packet", 13) != 0 &&
		strncmp(vdev, "eth_af_packet", 13) != 0)
		return false;
	p = strstr(vdev, ",iface=");
	if (p == NULL)
		return false;
	p += 7;
	n = strcspn(p, ",");
	if (n == 0 || n >= size)
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}

/* Check the --vdev value v; the exit code. */
static int
check_vdev(const char *v)
{
	char name[IF_NAMESIZE + 1];
	unsigned int ifindex;

	if (!afpacket_iface(v, name, sizeof(name)))
		return APP_EXIT_OK;
	ifindex = if_nametoindex(name);
	if (ifindex == 0 || !fanout_taken(ifindex, name))
		return APP_EXIT_OK;
	fprintf(stderr, "wirerate: error: --vdev %s: the af_packet PMD's "
		"fanout group for %s (id %u: this process's id %d xor the "
		"interface's index %u) is held by another process's packet "
		"socket on another interface of this network namespace; start "
		"wirerate again (a new process id), or in a namespace of its "
		"own\n", v, name, fanout_id(ifindex), (int)getpid(), ifindex);
	return APP_EXIT_FAILED;
}

int
app_afpacket_check(int argc, char **argv)
{
	int i, rc = APP_EXIT_OK;

	for (i = 1; i < argc && rc == APP_EXIT_OK; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--vdev") == 0 && i + 1 < argc)
			rc = check_vdev(argv[++i]);
		else if (strncmp(argv[i], "--vdev=", 7) == 0)
			rc = check_vdev(argv[i] + 7);
	}
	return rc;
}
