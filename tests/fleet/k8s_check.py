#!/usr/bin/env python3
"""k8s_check.py MANIFEST - for t_fleet_image.sh: the structure of image/lattop-daemonset.yaml,
offline (no API server, so no schema validation: kubectl needs one even for a client
dry run). Prints one line per problem and exits 1 when there is one; on success prints the
container's args, one per line, for the test to run the image with."""
import sys

import yaml

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
problems = []


def want(cond, why):
    if not cond:
        problems.append(why)


want(len(docs) == 1, "expected one document, got %d" % len(docs))
d = docs[0]
want(d.get("apiVersion") == "apps/v1" and d.get("kind") == "DaemonSet", "not an apps/v1 DaemonSet")
want(d.get("metadata", {}).get("name"), "no metadata.name")
spec = d.get("spec", {})
tmpl = spec.get("template", {})
sel = spec.get("selector", {}).get("matchLabels", {})
labels = tmpl.get("metadata", {}).get("labels", {})
want(sel and all(labels.get(k) == v for k, v in sel.items()), "selector does not match the pod labels")
pod = tmpl.get("spec", {})
want(pod.get("hostPID") is True, "hostPID is not true")
cs = pod.get("containers", [])
want(len(cs) == 1, "expected one container")
c = cs[0] if cs else {}
want(c.get("image"), "no image")
args = c.get("args", [])
want("--listen" in args, "no --listen in args")
port = None
if "--listen" in args and args.index("--listen") + 1 < len(args):
    port = int(args[args.index("--listen") + 1].rsplit(":", 1)[-1])
ports = [p.get("containerPort") for p in c.get("ports", [])]
want(port in ports, "--listen port %s is not a containerPort %s" % (port, ports))
sc = c.get("securityContext", {})
caps = sc.get("capabilities", {})
want("SYS_ADMIN" in caps.get("add", []), "CAP_SYS_ADMIN (listing programs, bpf_stats) not added")
want("ALL" in caps.get("drop", []), "capabilities not dropped to what is added")
want(not sc.get("privileged"), "privileged")
for probe in ("readinessProbe", "livenessProbe"):
    g = c.get(probe, {}).get("httpGet", {})
    want(g.get("path") == "/metrics", "%s does not GET /metrics (lattop's only route)" % probe)
    want(g.get("port") in ports + [p.get("name") for p in c.get("ports", [])],
         "%s port %s is not the container's" % (probe, g.get("port")))
vols = {v.get("name") for v in pod.get("volumes", [])}
for m in c.get("volumeMounts", []):
    want(m.get("name") in vols, "volumeMount %s has no volume" % m.get("name"))
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("\n".join(args))
