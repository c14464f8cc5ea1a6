/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ITU-T Y.1564 (02/2016), Ethernet service activation test methodology:
 * the pure parts of --mode y1564 (docs/y1564.md). No EAL: the step plan of
 * the service configuration test (clause 8.1.2: CIR steps, the CIR+EIR
 * step, the traffic policing step), the verdict of a step against the
 * service acceptance criteria (clause 6: FLR, FTD, FDV, AVAIL; IR), the
 * availability of the service performance test (clause 8.2; unavailable
 * time as ITU-T Y.1563 defines it: a period of unavailable time begins at
 * the onset of 10 consecutive severely errored seconds, which belong to it,
 * and ends at the onset of 10 consecutive seconds that are not) and its
 * per-second series in bounded memory.
 */
#ifndef WR_Y1564_H
#define WR_Y1564_H

#include <stdbool.h>
#include <stdint.h>

/* Kinds of service configuration steps. */
enum wr_y1564_kind {
	WR_Y1564_CIR,       /* 8.1.2 A: a step of the CIR (green frames) */
	WR_Y1564_EIR,       /* 8.1.2 B.1: green at CIR, yellow at EIR */
	WR_Y1564_POLICE,    /* 8.1.2 C: above CIR + EIR */
	WR_Y1564_PERF,      /* 8.2: the performance test, at CIR */
};

/* The most steps one service's configuration test has. */
#define WR_Y1564_MAX_STEPS 12u
/* Severely errored seconds in a row that start unavailable time (Y.1563),
 * and seconds without one that end it. */
#define WR_Y1564_AVAIL_RUN 10u
/* Unavailable periods a result lists (all are counted). */
#define WR_Y1564_MAX_WINDOWS 32u
/* Points the per-second series keeps: beyond, two points merge into one. */
#define WR_Y1564_SERIES_CAP 1024u

/* One step: what the service's green and yellow parts send. */
struct wr_y1564_step {
	enum wr_y1564_kind kind;
	double pct;          /* CIR steps: % of the CIR; else 0 */
	double green_pps;
	double yellow_pps;   /* 0: the yellow part is silent */
	char name[24];       /* "cir 25%", "cir+eir", "policing", "perf" */
};

/*
 * The configuration steps of a service with cir_pps and eir_pps (0: no
 * EIR) at the CIR steps pct[0..nb-1] (% of the CIR): the CIR steps, then
 * with an EIR the CIR+EIR step, then the policing step: green at CIR and
 * yellow at 1.25 EIR (EIR + 0.25 CIR when EIR < 0.2 CIR), or without an
 * EIR all green at 1.25 CIR (8.1.2 C.1, C.2). Returns the number of steps
 * written to out (at most max). This function can't fail.
 */
unsigned int wr_y1564_plan(double cir_pps, double eir_pps, const double *pct,
		unsigned int nb, struct wr_y1564_step *out, unsigned int max);

/* Criteria of a service; negative: not judged. */
struct wr_y1564_crit {
	double flr;          /* ratio */
	double ftd_ns;
	double fdv_ns;
	double avail;        /* ratio */
	double margin;       /* policing tolerance M, share of CIR + EIR */
	double cir_pps, eir_pps;
	bool skip_unmeasured; /* --skip-unmeasured: a criterion not measured
	                       * is listed, the verdict judges the rest */
};

/* What a step measured of one service. */
struct wr_y1564_meas {
	uint64_t green_sent, green_lost;
	uint64_t yellow_sent, yellow_lost;
	double duration_s;   /* TX time of the step */
	bool lat_valid;
	double ftd_ns;       /* mean, green frames */
	double fdv_ns;       /* green frames */
	double avail;        /* the performance test only; < 0 elsewhere */
};

/* Criteria a verdict may list as not measured (FTD, FDV). */
#define WR_Y1564_MAX_UNMEASURED 2u

/* One KPI outside its criterion. */
struct wr_y1564_fail {
	const char *kpi;     /* "FLR", "FTD", "FDV", "AVAIL", "IR" */
	double value;
	double criterion;
	const char *unit;    /* "ratio", "ns", "pps" */
	const char *rule;    /* "<=", ">=" */
};

struct wr_y1564_verdict {
	bool pass;
	unsigned int nb_fails;
	struct wr_y1564_fail fails[6];
	unsigned int nb_unmeasured;
	/* "FTD", "FDV": criteria without a figure */
	const char *unmeasured[WR_Y1564_MAX_UNMEASURED];
	double flr;          /* green frames' loss ratio */
	double ir_pps;       /* frames received (green and yellow) a second */
};

/*
 * Judge one step of kind k against c (8.1.2, 8.2): FLR (green frames; not
 * in a policing step without EIR, whose frames above CIR the policer is
 * to drop), FTD and FDV (green frames, when latency is valid) and, in a
 * policing step, IR <= (CIR + EIR) (1 + M) and, without an EIR, IR >=
 * CIR (1 - FLR); in the CIR+EIR step IR >= CIR (1 - FLR); AVAIL in the
 * performance test. A delay criterion without a figure (latency not
 * valid) is listed as not measured and fails the step (it is never
 * passed) unless c->skip_unmeasured. This function can't fail.
 */
void wr_y1564_judge(enum wr_y1564_kind k, const struct wr_y1564_crit *c,
		const struct wr_y1564_meas *m, struct wr_y1564_verdict *v);

/* One unavailable period: seconds since the test's start, its length. */
struct wr_y1564_window {
	uint32_t start_s;
	uint32_t len_s;
};

/* Availability of one service, fed one second at a time. */
struct wr_y1564_avail {
	double ses_flr;      /* a second is severely errored above this */
	uint32_t nb_s;       /* seconds fed */
	uint32_t nb_ses;     /* severely errored seconds */
	uint32_t unavail_s;  /* confirmed unavailable seconds */
	uint32_t run_s;      /* seconds in a row that may change the state */
	bool unavailable;
	uint32_t nb_windows; /* unavailable periods, all counted */
	struct wr_y1564_window windows[WR_Y1564_MAX_WINDOWS];
};

/* Start a service's availability. This function can't fail. */
void wr_y1564_avail_init(struct wr_y1564_avail *a, double ses_flr);

/*
 * One second with sent frames of which lost were lost (a second that
 * sent nothing is not severely errored). Returns whether it was
 * severely errored. This function can't fail.
 */
bool wr_y1564_avail_second(struct wr_y1564_avail *a, uint64_t sent, uint64_t lost);

/*
 * Unavailable seconds so far: the confirmed ones, and while unavailable
 * the seconds since the last severely errored one (the period has not
 * ended until 10 such seconds). This function can't fail.
 */
uint32_t wr_y1564_avail_unavailable_s(const struct wr_y1564_avail *a);

/* Availability ratio so far (1 with no second). This function can't fail. */
double wr_y1564_avail_ratio(const struct wr_y1564_avail *a);

/* One point of a service's series: span_s seconds from t_s. */
struct wr_y1564_point {
	uint32_t t_s;
	uint32_t span_s;
	uint64_t sent, lost;
	uint32_t nb_ses;
	double lat_sum_ns;   /* the latency samples' sum, and count */
	uint64_t nb_lat;
};

/* A per-second series that halves its resolution when full. */
struct wr_y1564_series {
	uint32_t nb;
	uint32_t span_s;     /* seconds per point: 1, 2, 4, ... */
	struct wr_y1564_point p[WR_Y1564_SERIES_CAP];
};

/* An empty series of 1 s points. This function can't fail. */
void wr_y1564_series_init(struct wr_y1564_series *s);

/*
 * Add second t_s (from 0, in order) to the series; when it is full, every
 * two points merge first (span_s doubles). Returns true when the points
 * merged (a copy of the series must be rebuilt). This function can't fail.
 */
bool wr_y1564_series_add(struct wr_y1564_series *s, uint32_t t_s,
		const struct wr_y1564_point *sec);

#endif /* WR_Y1564_H */
