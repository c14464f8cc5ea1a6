/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a PMD's name says of its port, from tables here alone: the run's
 * set-up (live ports) and the report (a result's ports[].driver) ask the
 * same question of the same list.
 */
#ifndef WR_BASE_DRIVER_H
#define WR_BASE_DRIVER_H

#include <stdbool.h>

/* A virtual NIC or a software port: its link speed is a label. */
bool wr_driver_speed_is_label(const char *driver);

/*
 * No wire at all (ring, null, memif, vhost, virtio_user): its Gb/s is
 * bytes handed over in memory (a ring passes pointers), never a line
 * rate to set beside a NIC's.
 */
bool wr_driver_no_wire(const char *driver);

#endif /* WR_BASE_DRIVER_H */
