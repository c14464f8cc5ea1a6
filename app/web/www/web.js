// SPDX-License-Identifier: BSD-3-Clause
// The page of wirerate serve --web (docs/web.md). Live figures come by
// server-sent events (/api/events: status and leases, one event per
// change); everything else is a JSON-RPC request to /api/rpc, the
// control socket's methods. The token goes in a header for every
// request and in a same-site cookie for the pages and the stream.
"use strict";

var wr = {
  token: sessionStorage.getItem("wr_token") || "",
  lease: sessionStorage.getItem("wr_lease") || "",
  source: null,
  chart: null,
  run: 0,
  interval: -1,
  runs: {},
  options: {},
};
// Every interval the page was told of: {run, interval, port, tx_pps, rx_pps}.
window.wrSamples = [];
window.wrEvents = 0;

// Line colours: port 0 TX, port 0 RX, port 1 TX, ...
var PALETTE = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#2ca02c", "#98df8a",
  "#9467bd", "#c5b0d5"];

function $(id) { return document.getElementById(id); }

function cell(tr, text, cls) {
  var td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function fmt(x, digits) {
  return typeof x === "number" ? x.toFixed(digits) : "-";
}

// One method of the control socket; resolves to {result} or {error}.
function rpc(method, params) {
  var h = {"Content-Type": "application/json"};
  if (wr.token) h.Authorization = "Bearer " + wr.token;
  return fetch("/api/rpc", {method: "POST", headers: h,
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method: method, params: params || {}})})
    .then(function (r) { return r.json(); })
    .catch(function (e) { return {error: {code: 0, message: String(e)}}; });
}

function setToken(t) {
  wr.token = t;
  wr.lease = $("lease").value;
  sessionStorage.setItem("wr_token", t);
  sessionStorage.setItem("wr_lease", wr.lease);
  document.cookie = "wr_token=" + t + "; path=/; SameSite=Strict";
  connect();
  loadPorts();
}

// --- live --------------------------------------------------------------
function resetChart() {
  if (typeof Chart === "undefined") return;
  if (wr.chart) wr.chart.destroy();
  wr.chart = new Chart($("rates"), {
    type: "line",
    data: {labels: [], datasets: []},
    options: {animation: false, maintainAspectRatio: false,
      scales: {y: {title: {display: true, text: "frames/s"}, beginAtZero: true},
               x: {title: {display: true, text: "interval"}}}},
  });
}

function chartAdd(interval, ports) {
  if (!wr.chart) return;
  var d = wr.chart.data;
  d.labels.push(interval);
  ports.forEach(function (p) {
    ["tx", "rx"].forEach(function (dir) {
      var label = "port " + p.port_id + " " + dir.toUpperCase();
      var ds = d.datasets.find(function (x) { return x.label === label; });
      if (!ds) {
        var color = PALETTE[(2 * p.port_id + (dir === "rx" ? 1 : 0)) % PALETTE.length];
        ds = {label: label, data: [], borderColor: color, backgroundColor: color,
              borderDash: dir === "rx" ? [5, 3] : []};
        d.datasets.push(ds);
      }
      ds.data.push(p[dir + "_pps"]);
    });
  });
  wr.chart.update();
}

// A latency in ns as us with 2 decimals, "-" when none is known.
function us(ns) { return ns === null || ns === undefined ? "-" : (ns / 1e3).toFixed(2); }

// The streams as the terminal's live view shows them: counts since the
// start, sent read after received (in flight shows as sent, not received).
function showStreams(list) {
  var body = $("live-streams").tBodies[0];
  body.innerHTML = "";
  list.forEach(function (s) {
    var tr = document.createElement("tr");
    cell(tr, s.stream_id); cell(tr, s.name || "-", "text");
    cell(tr, "tx" + s.tx_port + "." + s.tx_queue, "text");
    cell(tr, s.rx_port === null ? "-" : s.rx_port);
    cell(tr, s.sent_pkts === null ? "-" : s.sent_pkts); cell(tr, s.rx_pkts);
    cell(tr, s.gap_pkts); cell(tr, s.late_pkts); cell(tr, s.dup_pkts);
    cell(tr, us(s.lat_mean_ns));
    body.appendChild(tr);
  });
}

function showLive(st) {
  var live = st.live, body = $("live-ports").tBodies[0];
  $("run-id").textContent = st.run || "-";
  $("run-state").textContent = st.state;
  if (!live) return;
  var done = live.duration_ms > 0 ? Math.min(live.elapsed_ms / live.duration_ms, 1) : 0;
  $("progress").value = st.state === "running" ? done : 1;
  $("progress-text").textContent = "trial " + live.trial + ", interval " +
    live.intervals + ", " + (live.elapsed_ms / 1000).toFixed(1) + " s" +
    (live.duration_ms > 0 ? " of " + (live.duration_ms / 1000).toFixed(1) + " s" : "");
  body.innerHTML = "";
  live.ports.forEach(function (p) {
    var tr = document.createElement("tr");
    cell(tr, p.port_id);
    cell(tr, fmt(p.tx_pps, 0)); cell(tr, fmt(p.rx_pps, 0));
    cell(tr, fmt(p.tx_l1_bps / 1e9, 3)); cell(tr, fmt(p.rx_l1_bps / 1e9, 3));
    cell(tr, p.tx_pkts); cell(tr, p.rx_pkts);
    cell(tr, p.lost_pkts); cell(tr, p.missing_pkts);
    cell(tr, us(p.lat_p50_ns)); cell(tr, us(p.lat_p99_ns)); cell(tr, us(p.lat_max_ns));
    body.appendChild(tr);
  });
  showStreams(live.streams || []);
  // A new interval of the running run: recorded once, charted.
  if (st.state === "running" && live.state === "running" &&
      live.intervals > 0 && (st.run !== wr.run || live.intervals !== wr.interval)) {
    if (st.run !== wr.run) resetChart();
    wr.run = st.run;
    wr.interval = live.intervals;
    live.ports.forEach(function (p) {
      window.wrSamples.push({run: st.run, interval: live.intervals, port: p.port_id,
        tx_pps: p.tx_pps, rx_pps: p.rx_pps});
    });
    chartAdd(live.intervals, live.ports);
  }
}

function showRuns(st) {
  if (!st.run) return;
  var r = wr.runs[st.run];
  if (!r) {
    var tr = document.createElement("tr");
    r = wr.runs[st.run] = {tr: tr, state: cell(tr, ""), code: cell(tr, ""), links: null};
    tr.insertBefore(cell(tr, st.run), tr.firstChild);
    r.links = cell(tr, "", "text");
    $("runs").tBodies[0].insertBefore(tr, $("runs").tBodies[0].firstChild);
  }
  r.state.textContent = st.state;
  r.code.textContent = st.exit_code === undefined ? "" : st.exit_code;
  if ((st.state === "done" || st.state === "failed") && !r.linked) {
    r.linked = true;
    r.links.innerHTML = '<a class="report" href="/run/' + st.run +
      '/report/">report</a> <a class="json" href="/run/' + st.run +
      '/result.json" download>JSON</a>';
  }
}

function leaseUntil(l) {
  var t = l.expires_at || l.until || l.expires;
  return t === undefined ? "" : String(t);
}

function showLeases(doc) {
  var body = $("leases").tBodies[0], holders = {};
  body.innerHTML = "";
  if (doc === null || doc === undefined) {
    $("leases-note").textContent = "no leases on this server";
    return holders;
  }
  var list = Array.isArray(doc) ? doc : (doc.leases || []);
  list.forEach(function (l) {
    var tr = document.createElement("tr"), ports = [].concat(l.ports);
    cell(tr, ports.join(", "), "text"); cell(tr, l.owner || "", "text");
    cell(tr, l.reason || "", "text"); cell(tr, leaseUntil(l), "text");
    ports.forEach(function (p) { holders[p] = l.owner; });
    body.appendChild(tr);
  });
  var q = doc.queue || [];
  $("leases-note").textContent = list.length + " lease(s)" +
    (q.length ? ", queue: " + q.map(function (x) { return x.owner; }).join(", ") : "");
  return holders;
}

function connect() {
  if (wr.source) wr.source.close();
  wr.source = new EventSource("/api/events");
  wr.source.onopen = function () { $("link").textContent = "live"; };
  wr.source.onerror = function () { $("link").textContent = "not connected (token?)"; };
  wr.source.onmessage = function (ev) {
    var doc = JSON.parse(ev.data);
    window.wrEvents++;
    if (doc.status) {
      // Ports appear with a run (--ring-pairs, --vdev): listed again
      // whenever the run or its state changes.
      var key = doc.status.run + " " + doc.status.state;
      if (key !== wr.portsKey) { wr.portsKey = key; loadPorts(); }
      showLive(doc.status);
      showRuns(doc.status);
    }
    wr.holders = showLeases(doc.leases);
    showHolders();
  };
}

// --- tester --------------------------------------------------------------
function showHolders() {
  document.querySelectorAll("#ports tbody tr").forEach(function (tr) {
    var id = tr.dataset.port;
    var h = wr.holders || {};
    tr.cells[5].textContent = h[id] || h.all || "";
  });
}

function loadPorts() {
  rpc("ports").then(function (r) {
    var body = $("ports").tBodies[0];
    if (!r.result) return;
    body.innerHTML = "";
    r.result.ports.forEach(function (p) {
      var tr = document.createElement("tr");
      tr.dataset.port = p.port_id;
      cell(tr, p.port_id); cell(tr, p.name, "text"); cell(tr, p.driver, "text");
      cell(tr, p.mac, "text"); cell(tr, p.link_up ? "up" : "down", "text");
      cell(tr, "", "text");
      body.appendChild(tr);
    });
    showHolders();
  });
}

// --- the run form ----------------------------------------------------------
function addRow(name, value) {
  var row = document.createElement("div");
  row.className = "opt-row";
  row.innerHTML = '<input class="name" list="opt-names" placeholder="option">' +
    '<input class="value" placeholder="value"><button type="button">x</button>' +
    '<span class="help"></span><span class="error"></span>';
  var n = row.querySelector(".name");
  n.value = name || "";
  row.querySelector(".value").value = value || "";
  n.addEventListener("change", function () {
    var o = wr.options[n.value];
    row.dataset.name = n.value;
    row.querySelector(".help").textContent = o ? o.help.replace(/\n/g, " ") : "";
  });
  row.querySelector("button").onclick = function () { row.remove(); };
  row.dataset.name = n.value;
  row.id = "opt-" + (name || Math.random().toString(36).slice(2));
  $("opt-rows").appendChild(row);
  n.dispatchEvent(new Event("change"));
  return row;
}

function formParams() {
  var params = {};
  document.querySelectorAll(".opt-row").forEach(function (row) {
    var name = row.querySelector(".name").value.trim().replace(/^--/, "");
    var v = row.querySelector(".value").value.trim();
    var o = wr.options[name];
    if (!name) return;
    var val = (o && !o.arg && v === "") ? true : v;
    if (params[name] === undefined) params[name] = val;
    else params[name] = [].concat(params[name], val);
  });
  return params;
}

// The server's message by the field it names (--NAME), else under the form.
function showFormError(msg) {
  var m = /--([a-z0-9-]+)/.exec(msg), shown = false;
  document.querySelectorAll(".opt-row").forEach(function (row) {
    var name = row.querySelector(".name").value.trim().replace(/^--/, "");
    if (m && name === m[1] && !shown) {
      row.classList.add("bad");
      row.querySelector(".error").textContent = msg;
      shown = true;
    }
  });
  if (!shown) $("form-error").textContent = msg;
}

function submitRun(ev) {
  ev.preventDefault();
  $("form-error").textContent = "";
  document.querySelectorAll(".opt-row").forEach(function (row) {
    row.classList.remove("bad");
    row.querySelector(".error").textContent = "";
  });
  var params = formParams();
  if (wr.lease && params.lease === undefined) params.lease = wr.lease;
  rpc("start", params).then(function (r) {
    if (r.error) showFormError(r.error.message);
    else $("form-error").textContent = "";
  });
}

function loadOptions() {
  fetch("/api/options").then(function (r) { return r.json(); }).then(function (a) {
    var dl = $("opt-names");
    a.forEach(function (o) {
      wr.options[o.name] = o;
      var op = document.createElement("option");
      op.value = o.name;
      dl.appendChild(op);
    });
    document.querySelectorAll(".opt-row .name").forEach(function (n) {
      n.dispatchEvent(new Event("change"));
    });
  });
}

window.addEventListener("DOMContentLoaded", function () {
  $("token").value = wr.token;
  $("lease").value = wr.lease;
  $("token-set").onclick = function () { setToken($("token").value); };
  $("add-opt").onclick = function () { addRow("", ""); };
  $("run-form").onsubmit = submitRun;
  $("stop").onclick = function () {
    rpc("stop", wr.lease ? {lease: wr.lease} : {}).then(function (r) {
      $("stop-error").textContent = r.error ? r.error.message : "";
    });
  };
  ["tx-ports", "rx-ports", "rate", "duration"].forEach(function (n) { addRow(n, ""); });
  resetChart();
  loadOptions();
  if (wr.token) document.cookie = "wr_token=" + wr.token + "; path=/; SameSite=Strict";
  connect();
  loadPorts();
});
