/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The keys known only once the ports closed: the capture's figures and,
 * for a test mode, how it ended (docs/results.md).
 */
#include <errno.h>

#include "base/jsonw.h"
#include "datapath/capture.h"
#include "result.h"

json_t *
wr_result_capture_json(const struct wr_capture *cap)
{
	struct wr_capture_figures f;
	json_t *o = json_object();

	wr_capture_figures(cap, &f);
	wr_json_set(o, "path", json_string(f.path));
	wr_json_set(o, "frames", wr_json_u64(f.frames));
	wr_json_set(o, "copied_pkts", wr_json_u64(f.copied_pkts));
	wr_json_set(o, "dropped_pkts", wr_json_u64(f.dropped_pkts));
	wr_json_set(o, "over_budget_pkts", wr_json_u64(f.over_budget_pkts));
	wr_json_set(o, "anomalies", wr_json_u64(f.anomalies));
	wr_json_set(o, "snaplen", wr_json_u64(f.snaplen));
	wr_json_set(o, "checkpoints_failed", wr_json_u64(f.checkpoints_failed));
	wr_json_set(o, "around_pkts", wr_json_u64(f.around_pkts));
	wr_json_set(o, "last_pkts", wr_json_u64(f.last_pkts));
	wr_json_set(o, "max_pkts", wr_json_u64(f.max_pkts));
	return o;
}

void
wr_result_mode_end(json_t *doc, const struct wr_run *run, int rc)
{
	wr_json_set(doc, "mbufs_missing", wr_json_u64(run->res.mbufs_missing));
	wr_json_set(doc, "stranded_pkts", wr_json_u64(run->res.nb_stranded_pkts));
	wr_json_set(doc, "stop_reason", json_string(rc == -EINTR ? "signal" :
		rc == 0 ? "done" : "error"));
	if (run->setup.cap != NULL)
		wr_json_set(doc, "capture", wr_result_capture_json(run->setup.cap));
}
