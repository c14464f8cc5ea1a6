/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The page's files and a run's pages. The files (index.html, web.js,
 * web.css) are found next to the binary: <bindir>/web/ in a build tree
 * (app/web/meson.build copies them there), <bindir>/../share/wirerate/web
 * once installed. Chart.js is Debian's (libjs-chart.js), served from
 * /usr/share/javascript: the page needs no network. /run/ID/result.json
 * is the run's result as the result method gives it; /run/ID/report/ is
 * the page `wirerate report` writes of it, made once per run in a
 * private folder removed when the server ends; /history/ the page
 * `wirerate history html` writes of --web-history's DB.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/rpc.h"
#include "history/history.h"
#include "report/report.h"
#include "web_int.h"

#define CHART_JS "/usr/share/javascript/chart.js/chart.min.js"

static const struct {
	const char *url;
	const char *file;    /* in w->files, or absolute */
	const char *type;
} statics[] = {
	{ "/", "index.html", "text/html; charset=utf-8" },
	{ "/web.js", "web.js", "text/javascript" },
	{ "/web.css", "web.css", "text/css" },
	{ "/chart.js", CHART_JS, "text/javascript" },
};

/* A type by the file's extension (the report's files). */
static const char *
type_of(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (dot == NULL)
		return "application/octet-stream";
	if (strcmp(dot, ".html") == 0)
		return "text/html; charset=utf-8";
	if (strcmp(dot, ".png") == 0)
		return "image/png";
	if (strcmp(dot, ".svg") == 0)
		return "image/svg+xml";
	if (strcmp(dot, ".json") == 0)
		return "application/json";
	return "text/plain; charset=utf-8";
}

/* The file at path, whole, with type; 404 when it is not there. */
static enum MHD_Result
send_file(struct MHD_Connection *conn, const char *path, const char *type)
{
	struct MHD_Response *resp;
	struct stat st;
	enum MHD_Result rc;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
			"no such page");
	}
	resp = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
	if (resp == NULL) {
		close(fd);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", type);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return rc;
}

/* Run id's result document (a new reference), or NULL with msg. */
static json_t *
result_of(struct app_web *w, uint64_t id, int *code, char *msg, size_t len)
{
	json_t *params = json_pack("{s:I}", "run", (json_int_t)id), *out = NULL;
	json_t *doc = NULL;

	*code = params == NULL ? WR_RPC_INTERNAL : w->ops.call(w->ops.ctx,
		"result", params, &out, msg, len);
	json_decref(params);
	if (*code == 0)
		doc = json_incref(json_object_get(out, "result"));
	json_decref(out);
	return doc;
}

/* A JSON-RPC error code as an HTTP status, for the run's pages. */
static unsigned int
run_status(int code)
{
	return code == WR_RPC_BAD_STATE ? MHD_HTTP_NOT_FOUND :
		MHD_HTTP_INTERNAL_SERVER_ERROR;
}

/* /run/ID/result.json: the result, downloaded as a file. */
static enum MHD_Result
send_result(struct app_web *w, struct MHD_Connection *conn, uint64_t id)
{
	struct MHD_Response *resp;
	char msg[512], disp[96];
	enum MHD_Result rc;
	int code;
	json_t *doc = result_of(w, id, &code, msg, sizeof(msg));
	char *s = doc != NULL ? json_dumps(doc, JSON_INDENT(1)) : NULL;

	json_decref(doc);
	if (s == NULL)
		return web_reply_error(conn, run_status(code), code, msg);
	resp = MHD_create_response_from_buffer(strlen(s), s, MHD_RESPMEM_MUST_FREE);
	if (resp == NULL) {
		free(s);
		return MHD_NO;
	}
	snprintf(disp, sizeof(disp), "attachment; filename=\"run-%" PRIu64
		".json\"", id);
	MHD_add_response_header(resp, "Content-Type", "application/json");
	MHD_add_response_header(resp, "Content-Disposition", disp);
	rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return rc;
}

/* Write run id's report into dir (once): 0, or an error code with msg. */
static int
make_report(struct app_web *w, uint64_t id, const char *dir, char *msg,
		size_t len)
{
	char json[PATH_MAX + 16], out[PATH_MAX + 16];
	char a0[] = "report", a1[] = "--out";
	char *argv[] = { a0, a1, out, json, NULL };
	int code = 0;
	json_t *doc;

	snprintf(out, sizeof(out), "%s/report.html", dir);
	if (access(out, R_OK) == 0)
		return 0;
	doc = result_of(w, id, &code, msg, len);
	if (doc == NULL)
		return code;
	mkdir(dir, 0700);
	snprintf(json, sizeof(json), "%s/result.json", dir);
	snprintf(out, sizeof(out), "%s", dir);
	if (json_dump_file(doc, json, JSON_INDENT(1)) != 0 ||
			app_report_main(4, argv) != 0) {
		snprintf(msg, len, "the report of run %" PRIu64 " could not be "
			"written (the server's stderr says why)", id);
		code = WR_RPC_INTERNAL;
	}
	json_decref(doc);
	return code;
}

/* /run/ID/report/NAME: a file of the run's report. */
static enum MHD_Result
send_report(struct app_web *w, struct MHD_Connection *conn, uint64_t id,
		const char *name)
{
	char dir[sizeof(w->tmp) + 32], path[sizeof(dir) + NAME_MAX + 2], msg[512];
	int code;

	if (name[0] == '\0')
		name = "report.html";
	if (name[0] == '.' || strchr(name, '/') != NULL)
		return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
			"no such page");
	snprintf(dir, sizeof(dir), "%s/run-%" PRIu64, w->tmp, id);
	pthread_mutex_lock(&w->report_lock);
	code = make_report(w, id, dir, msg, sizeof(msg));
	pthread_mutex_unlock(&w->report_lock);
	if (code != 0)
		return web_reply_error(conn, run_status(code), code, msg);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return send_file(conn, path, type_of(name));
}

/*
 * /history/NAME: what `wirerate history html` writes of --web-history's
 * DB, written again at each visit of the page itself (history.html), so
 * that it shows what was added since.
 */
static enum MHD_Result
send_history(struct app_web *w, struct MHD_Connection *conn, const char *name)
{
	char dir[sizeof(w->tmp) + 16], path[sizeof(dir) + NAME_MAX + 2];
	char a0[] = "history", a1[] = "html", a2[] = "--out";
	char *argv[] = { a0, a1, a2, dir, w->history, NULL };
	int rc = 0;

	if (w->history[0] == '\0')
		return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
			"no history here: the server was started without "
			"--web-history DB");
	if (!w->open && !web_authed(w, conn, true))
		return web_reply_error(conn, MHD_HTTP_UNAUTHORIZED, WR_RPC_DENIED,
			"this server's pages need the token (--web-open lets "
			"reading go without)");
	if (name[0] == '\0')
		name = "history.html";
	if (name[0] == '.' || strchr(name, '/') != NULL)
		return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
			"no such page");
	snprintf(dir, sizeof(dir), "%s/history", w->tmp);
	pthread_mutex_lock(&w->report_lock);
	if (strcmp(name, "history.html") == 0) {
		mkdir(dir, 0700);
		rc = app_history_main(5, argv);
	}
	pthread_mutex_unlock(&w->report_lock);
	if (rc != 0)
		return web_reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			WR_RPC_INTERNAL, "wirerate history html failed on "
			"--web-history's DB (the server's stderr says why)");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return send_file(conn, path, type_of(name));
}

/* /run/ID/...: the run's pages, with the token unless --web-open. */
static enum MHD_Result
run_page(struct app_web *w, struct MHD_Connection *conn, const char *url)
{
	char *end;
	uint64_t id = strtoull(url, &end, 10);

	if (end == url || id == 0)
		return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
			"/run/ID/...: ID is a run id");
	if (!w->open && !web_authed(w, conn, true))
		return web_reply_error(conn, MHD_HTTP_UNAUTHORIZED, WR_RPC_DENIED,
			"this server's pages need the token (--web-open lets "
			"reading go without)");
	if (strcmp(end, "/result.json") == 0)
		return send_result(w, conn, id);
	if (strncmp(end, "/report/", 8) == 0)
		return send_report(w, conn, id, end + 8);
	return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
		"no such page (a run has result.json and report/)");
}

enum MHD_Result
web_files_get(struct app_web *w, struct MHD_Connection *conn, const char *url)
{
	char path[PATH_MAX * 2];
	unsigned int i;

	if (strncmp(url, "/run/", 5) == 0)
		return run_page(w, conn, url + 5);
	if (strncmp(url, "/history/", 9) == 0)
		return send_history(w, conn, url + 9);
	for (i = 0; i < sizeof(statics) / sizeof(statics[0]); i++) {
		if (strcmp(url, statics[i].url) != 0)
			continue;
		if (statics[i].file[0] == '/')
			return send_file(conn, statics[i].file, statics[i].type);
		snprintf(path, sizeof(path), "%s/%s", w->files, statics[i].file);
		return send_file(conn, path, statics[i].type);
	}
	return web_reply_error(conn, MHD_HTTP_NOT_FOUND, WR_RPC_NO_METHOD,
		"no such page");
}

int
web_files_find(struct app_web *w)
{
	static const char *const under[] = { "web", "../share/wirerate/web" };
	char exe[PATH_MAX - 64], probe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	unsigned int i;

	snprintf(w->tmp, sizeof(w->tmp), "/tmp/wirerate-web.XXXXXX");
	if (mkdtemp(w->tmp) == NULL)
		w->tmp[0] = '\0';
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	dirname(exe);
	for (i = 0; i < sizeof(under) / sizeof(under[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/%s/index.html", exe, under[i]);
		if (access(probe, R_OK) == 0) {
			snprintf(w->files, sizeof(w->files), "%s/%s", exe, under[i]);
			return 0;
		}
	}
	return -1;
}

/* nftw's visit: remove what is there, children first. */
static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(path);
	return 0;
}

void
web_files_clean(struct app_web *w)
{
	if (w->tmp[0] != '\0')
		nftw(w->tmp, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	w->tmp[0] = '\0';
}
