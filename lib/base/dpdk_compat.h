/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Everything that differs between the DPDK releases wirerate supports
 * (22.11 to 25.11, docs/dpdk-versions.md): the one place RTE_VERSION is
 * tested. Other files use the WR_DPDK_* names below; the API differences
 * that need code live in thin modules of the layer that calls that API
 * (datapath/pcapng_compat.c, stats/qstats.c), which choose by these names.
 */
#ifndef WR_DPDK_COMPAT_H
#define WR_DPDK_COMPAT_H

#include <rte_common.h>
#include <rte_version.h>

/* The oldest release wirerate builds against (meson.build refuses older). */
#if RTE_VERSION < RTE_VERSION_NUM(22, 11, 0, 0)
#error "wirerate needs DPDK 22.11 or newer"
#endif

/*
 * Packed structures: 25.03 (the LTS: 25.11) deprecates __rte_packed after
 * the struct and wants __rte_packed_begin after the keyword and
 * __rte_packed_end after the closing brace (MSVC needs both ends); older
 * releases have neither.
 */
#if RTE_VERSION < RTE_VERSION_NUM(25, 3, 0, 0)
#define WR_PACKED_BEGIN
#define WR_PACKED_END __rte_packed
#else
#define WR_PACKED_BEGIN __rte_packed_begin
#define WR_PACKED_END __rte_packed_end
#endif

/*
 * rte_pcapng (23.11 changed it): rte_pcapng_copy() takes no timestamp
 * (it stores the TSC, rte_pcapng_write_packets() converts it with the
 * clock of its own handle) and a comment; the interfaces a file holds
 * are added with rte_pcapng_add_interface() (25.11: with a link type).
 * 22.11 writes one interface per ethdev port at rte_pcapng_fdopen() and
 * converts the timestamp in rte_pcapng_copy().
 */
#define WR_DPDK_PCAPNG_ADD_INTERFACE \
	(RTE_VERSION >= RTE_VERSION_NUM(23, 11, 0, 0))
#define WR_DPDK_PCAPNG_TSC_AT_WRITE WR_DPDK_PCAPNG_ADD_INTERFACE
#define WR_DPDK_PCAPNG_LINK_TYPE \
	(RTE_VERSION >= RTE_VERSION_NUM(25, 11, 0, 0))

/*
 * Telemetry: 23.03 renamed rte_tel_data_add_dict_u64() to
 * rte_tel_data_add_dict_uint() (23.11 and 24.11 deprecate the old name,
 * 25.11 removed it). Same arguments.
 */
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
#define WR_TEL_DATA_ADD_DICT_U64 rte_tel_data_add_dict_u64
#else
#define WR_TEL_DATA_ADD_DICT_U64 rte_tel_data_add_dict_uint
#endif

/*
 * Per-queue counters: 25.11 removed q_ipackets, q_opackets ... and
 * RTE_ETHDEV_QUEUE_STAT_CNTRS from struct rte_eth_stats; ethdev reports
 * them as the xstats rx_q<N>_packets and tx_q<N>_packets.
 */
#define WR_DPDK_QSTATS_IN_XSTATS \
	(RTE_VERSION >= RTE_VERSION_NUM(25, 11, 0, 0))

/*
 * ICMP echo types: 24.11 names them RTE_ICMP_TYPE_ECHO_{REQUEST,REPLY} and
 * deprecates the RTE_IP_ICMP_ECHO_* names the older releases have.
 */
#ifdef RTE_ICMP_TYPE_ECHO_REQUEST
#define WR_ICMP_ECHO_REQUEST RTE_ICMP_TYPE_ECHO_REQUEST
#define WR_ICMP_ECHO_REPLY RTE_ICMP_TYPE_ECHO_REPLY
#else
#define WR_ICMP_ECHO_REQUEST RTE_IP_ICMP_ECHO_REQUEST
#define WR_ICMP_ECHO_REPLY RTE_IP_ICMP_ECHO_REPLY
#endif

#endif
