/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include <rte_common.h>
#include <rte_devargs.h>

#include "kport.h"

/*
 * Where the kernel puts a frame in an af_packet TPACKET_V2 ring slot
 * (net/packet/af_packet.c, tpacket_rcv): TPACKET_ALIGN(TPACKET2_HDRLEN
 * (52) + 16) - 14 = 66 bytes; a longer frame is cut. The PMD's TX sends
 * at most framesz - 32 bytes and drops longer frames.
 */
#define AFP_MAC_OFF 66u
#define AFP_DATA_OFF 32u
#define AFP_FRAME_ALIGN 16u

/* The ring arguments of an af_packet --vdev, as given (0: not given). */
struct afp_args {
	uint32_t framesz;
	uint32_t blocksz;
	int qdisc_bypass;            /* -1: not given (the PMD's default: on) */
};

bool
wr_kport_copies(const struct wr_port *p)
{
	return strcmp(p->driver, "net_af_packet") == 0;
}

static bool
kernel_backed(const struct wr_port *p)
{
	return wr_kport_copies(p) || strcmp(p->driver, "net_tap") == 0 ||
		strcmp(p->driver, "net_af_xdp") == 0;
}

/* Value of key= in a --vdev's argument string args, or -1. */
static long
devarg_value(const char *args, const char *key)
{
	size_t klen = strlen(key);
	const char *s = args;

	while (s != NULL && *s != '\0') {
		if (strncmp(s, key, klen) == 0 && s[klen] == '=')
			return strtol(s + klen + 1, NULL, 0);
		s = strchr(s, ',');
		if (s != NULL)
			s++;
	}
	return -1;
}

/* The --vdev arguments of p's device, read from EAL's list. */
static void
afp_args_read(const struct wr_port *p, struct afp_args *a)
{
	struct rte_devargs *da;
	long v;

	memset(a, 0, sizeof(*a));
	a->qdisc_bypass = -1;
	RTE_EAL_DEVARGS_FOREACH("vdev", da) {
		if (strcmp(da->name, p->name) != 0 || da->args == NULL)
			continue;
		v = devarg_value(da->args, "framesz");
		a->framesz = v > 0 ? (uint32_t)v : 0;
		v = devarg_value(da->args, "blocksz");
		a->blocksz = v > 0 ? (uint32_t)v : 0;
		v = devarg_value(da->args, "qdisc_bypass");
		a->qdisc_bypass = v < 0 ? -1 : v != 0;
	}
}

/* The interface's MTU from sysfs; 0 when it cannot be read. */
static uint32_t
sysfs_mtu(const char *ifname)
{
	char path[96];
	unsigned int mtu = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%u", &mtu) != 1)
		mtu = 0;
	fclose(f);
	return mtu;
}

/* Set ifname's MTU (SIOCSIFMTU, what `ip link set dev X mtu N` does). */
static int
set_mtu(const char *ifname, uint32_t mtu)
{
	struct ifreq ifr;
	int fd, rc = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_mtu = (int)mtu;
	if (ioctl(fd, SIOCSIFMTU, &ifr) != 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* The interface's MTU must carry mtu bytes; the tap wirerate made is raised. */
static int
check_mtu(struct wr_port *p, const char *ifname, uint32_t mtu, struct wr_error *err)
{
	uint32_t have = sysfs_mtu(ifname);
	int rc;

	if (have == 0 || have >= mtu)
		return 0;
	if (strcmp(p->driver, "net_tap") == 0) {
		rc = set_mtu(ifname, mtu);
		if (rc != 0)
			return wr_err_env(err, rc, "port %u (net_tap): cannot set the MTU of "
				"its interface %s to %u: %s", p->port_id, ifname, mtu,
				strerror(-rc));
		wr_port_note(p, "MTU of interface %s raised from %u to %u", ifname, have, mtu);
		return 0;
	}
	return wr_err_usage(err, -EINVAL, "port %u (%s): interface %s has MTU %u, "
		"frames of this size need %u: raise it first (ip link set dev %s mtu %u)",
		p->port_id, p->driver, ifname, have, mtu, ifname, mtu);
}

/*
 * af_packet's ring must hold the frame; the RX mbufs its frame size. The
 * PMD addresses slot i at i * framesz, so a block must hold whole slots.
 */
static int
check_afp_ring(struct wr_port *p, const struct afp_args *a, uint32_t frame_len,
		uint32_t *rx_room, struct wr_error *err)
{
	uint32_t framesz = a->framesz ? a->framesz : WR_KPORT_AFP_FRAMESZ;
	uint32_t blocksz = a->blocksz ? a->blocksz : WR_KPORT_AFP_BLOCKSZ;
	uint32_t need = RTE_ALIGN_CEIL(frame_len + AFP_MAC_OFF, AFP_FRAME_ALIGN);
	uint32_t fz = RTE_ALIGN_CEIL(RTE_MAX(need, framesz), WR_KPORT_AFP_BLOCKSZ);

	if (framesz < need)
		return wr_err_usage(err, -EINVAL, "port %u (net_af_packet): %u-byte frames "
			"do not fit its ring's slots (framesz=%u%s; a frame needs %u): add "
			"framesz=%u,blocksz=%u to its --vdev", p->port_id, frame_len,
			framesz, a->framesz ? "" : ", the default", need, fz, fz);
	if (blocksz % framesz != 0)
		return wr_err_usage(err, -EINVAL, "port %u (net_af_packet): blocksz=%u is not "
			"a multiple of framesz=%u: the PMD would read its ring at the wrong "
			"places; give framesz=%u,blocksz=%u", p->port_id, blocksz, framesz,
			fz, fz);
	/* The PMD refuses RX mbufs smaller than a slot's data. */
	if (*rx_room < framesz - AFP_DATA_OFF) {
		*rx_room = framesz - AFP_DATA_OFF;
		wr_port_note(p, "RX buffers of %u bytes: af_packet framesz=%u", *rx_room,
			framesz);
	}
	return 0;
}

/* Qdiscs that neither shape nor schedule: bypassing them changes nothing. */
static bool
qdisc_plain(const char *kind)
{
	static const char *const plain[] = {
		"noqueue", "mq", "pfifo_fast", "fq_codel", "pfifo", "bfifo",
	};
	char dflt[32] = "";
	FILE *f = fopen("/proc/sys/net/core/default_qdisc", "r");
	unsigned int i;

	if (f != NULL) {
		if (fscanf(f, "%31s", dflt) != 1)
			dflt[0] = '\0';
		fclose(f);
	}
	for (i = 0; i < RTE_DIM(plain); i++)
		if (strcmp(kind, plain[i]) == 0)
			return true;
	return strcmp(kind, dflt) == 0;
}

/*
 * af_packet's qdisc bypass (on unless qdisc_bypass=0) sends past the
 * interface's root qdisc: a shaper there would count nothing.
 */
static int
check_qdisc(struct wr_port *p, const char *ifname, const struct afp_args *a,
		struct wr_error *err)
{
	char kind[32];

	if (!p->tx || a->qdisc_bypass == 0 || wr_kport_root_qdisc(ifname, kind,
			sizeof(kind)) != 0 || qdisc_plain(kind))
		return 0;
	if (a->qdisc_bypass == 1) {
		wr_port_note(p, "root qdisc %s of %s is bypassed (qdisc_bypass=1)", kind,
			ifname);
		return 0;
	}
	return wr_err_usage(err, -EINVAL, "port %u (net_af_packet): interface %s has a "
		"root qdisc %s, and af_packet bypasses qdiscs by default: add "
		"qdisc_bypass=0 to its --vdev to send through it (or qdisc_bypass=1 "
		"to bypass it knowingly)", p->port_id, ifname, kind);
}

int
wr_kport_check(struct wr_port *p, uint32_t frame_len, uint32_t mtu,
		uint32_t *rx_room, struct wr_error *err)
{
	char ifname[IF_NAMESIZE];
	struct afp_args a;
	int rc;

	if (!kernel_backed(p) || p->info.if_index == 0 ||
			if_indextoname(p->info.if_index, ifname) == NULL)
		return 0;
	rc = check_mtu(p, ifname, mtu, err);
	if (rc != 0 || strcmp(p->driver, "net_af_packet") != 0)
		return rc;
	afp_args_read(p, &a);
	rc = check_afp_ring(p, &a, frame_len, rx_room, err);
	if (rc != 0)
		return rc;
	return check_qdisc(p, ifname, &a, err);
}

/* TCA_KIND of one RTM_NEWQDISC message when it is ifindex's root qdisc. */
static bool
qdisc_root_kind(struct nlmsghdr *nh, int ifindex, char *kind, size_t len)
{
	/* Not const: the kernel's NLMSG_ and RTA_ macros cast it away. */
	struct tcmsg *t = NLMSG_DATA(nh);
	struct rtattr *a = (struct rtattr *)((char *)t + NLMSG_ALIGN(sizeof(*t)));
	int alen = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*t));

	if (t->tcm_ifindex != ifindex || t->tcm_parent != TC_H_ROOT)
		return false;
	for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
		if (a->rta_type == TCA_KIND) {
			snprintf(kind, len, "%s", (char *)RTA_DATA(a));
			return true;
		}
	}
	return false;
}

/* Read one dump's replies; 0 when the root qdisc was found. */
static int
qdisc_dump_read(int fd, int ifindex, char *kind, size_t len)
{
	uint32_t buf[2048];
	struct nlmsghdr *nh;
	int rc = -ENOENT;
	ssize_t n;
	size_t off, left;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		/* NLMSG_OK and NLMSG_NEXT, without their mixed-sign compares. */
		for (off = 0; off + sizeof(*nh) <= (size_t)n; off += NLMSG_ALIGN(left)) {
			nh = (struct nlmsghdr *)((char *)buf + off);
			left = nh->nlmsg_len;
			if (left < sizeof(*nh) || left > (size_t)n - off)
				break;
			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR)
				return rc;
			if (nh->nlmsg_type == RTM_NEWQDISC &&
					qdisc_root_kind(nh, ifindex, kind, len))
				rc = 0;
		}
	}
}

int
wr_kport_root_qdisc(const char *ifname, char *kind, size_t len)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	int ifindex = (int)if_nametoindex(ifname);
	int fd, rc;

	if (ifindex == 0)
		return -errno;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = sizeof(req);
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = ifindex;
	rc = send(fd, &req, sizeof(req), 0) < 0 ? -errno :
		qdisc_dump_read(fd, ifindex, kind, len);
	close(fd);
	return rc;
}
