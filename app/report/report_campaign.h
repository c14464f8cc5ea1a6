/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate report` on two-ended results: campaign cells and merges (report_campaign.c). */
#ifndef WR_APP_REPORT_CAMPAIGN_H
#define WR_APP_REPORT_CAMPAIGN_H

#include "base/error.h"
#include "rep.h"
#include "rep_doc.h"

/*
 * When path is a campaign cell (wirerate-cell/1) or a merge
 * (wirerate-merge/1): record it in rep->campaign and, when it has a
 * balanced merge, add its pair of results as one run (its receiver's
 * document is the file). Returns 0, 1 when path is neither (read it as a
 * result), or -1 with a message in err.
 */
int rep_campaign_load(struct rep *rep, const char *path, struct wr_error *err);

/*
 * Put the campaign table (every cell, failed ones too, with both ends'
 * cycles per frame) first in doc. Returns 0 (also without cells) or
 * -ENOMEM.
 */
int rep_campaign_table(const struct rep *rep, struct rep_doc *doc);

/* Free what rep_campaign_load() kept. This function can't fail. */
void rep_campaign_free(struct rep *rep);

#endif /* WR_APP_REPORT_CAMPAIGN_H */
