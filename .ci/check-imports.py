#!/usr/bin/env python3
"""Checks the module layout the architecture promises (docs/ARCHITECTURE.md), from the sources:

1. every module a target imports is declared in Package.swift as one of that target's dependencies
   (a module reached only through another target's dependencies builds today and breaks tomorrow);
2. no front end imports, or depends on, the key hierarchy, the engine or the store: front ends speak
   to a keychain only through KeychainClient;
3. along the transitive closure of Package.swift's target dependencies: the client protocol and the daemon
   transport (and anything marked daemon-only) never reach the engine, the store, the key hierarchy or the
   keychain service, and only KeychainSelection names both transports.

Exits non-zero, naming each offence, when any is broken. Run from the package root. With --closure, prints how
many project targets each product's main target links (the figures of BENCHMARKS.md) and exits.
"""
import json
import os
import re
import subprocess
import sys

# The front ends: Apple's modules, the Swift API, the command-line tool, and every helper or provider
# over the client seam. A new front end is added here.
FRONT_ENDS = {
    "Security", "Coffer", "CofferCLI", "LocalAuthentication", "CryptoKit", "CofferTLS",
    "CredentialHelperSupport", "GitCredentialCoffer", "DockerCredentialCoffer", "SSHAgent", "SecretService", "CofferSecretService",
}
# What front ends must never import: the machinery below the client seam.
MACHINERY = {"Keystore", "Engine", "ItemStore", "KeychainService", "AuditTrail"}
# Targets that must never reach the machinery, however indirectly: the client protocol, the daemon transport and
# what they stand on. A front end that serves other programs from inside them (a PKCS#11 module) is added here.
DAEMON_ONLY = {"KeychainClient", "DaemonClient", "DaemonProtocol", "KeychainOperations", "Query", "KeychainModel", "CofferRuntime", "KeychainKeys"}
# The two transports, and the one target allowed to depend on both.
TRANSPORTS = {"DaemonClient", "EmbeddedClient"}
SELECTION = "KeychainSelection"
# Modules of the toolchain and the system, which need no declaration.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Dispatch",
    "Synchronization", "Testing", "XCTest", "_Concurrency", "Swift", "CoreFoundation",
}
# Library products whose module has another name.
PRODUCT_MODULES = {"GRDB-dynamic": "GRDB"}

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)


def project_dependencies(manifest):
    """Each target's declared dependencies on other targets of this package."""
    names = {target["name"] for target in manifest["targets"]}
    edges = {}
    for target in manifest["targets"]:
        found = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dependency and dependency[kind][0] in names:
                    found.add(dependency[kind][0])
        edges[target["name"]] = found
    return edges


def closure(edges, name):
    """Every target `name` depends on, directly or not."""
    seen, stack = set(), [name]
    while stack:
        for dependency in edges.get(stack.pop(), ()):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


def transitive_problems(manifest):
    edges = project_dependencies(manifest)
    problems = []
    for name in sorted(DAEMON_ONLY):
        for module in sorted(closure(edges, name) & MACHINERY):
            problems.append(f"target {name} (daemon-only) reaches {module}; it must link without the engine")
    for target in manifest["targets"]:
        name = target["name"]
        if name != SELECTION and TRANSPORTS <= edges.get(name, set()):
            problems.append(f"target {name} depends on both transports; only {SELECTION} chooses between them")
    return problems


def print_closure(manifest):
    edges = project_dependencies(manifest)
    for product in manifest.get("products", []):
        for target in product.get("targets", []):
            reached = closure(edges, target)
            machinery = ", ".join(sorted(reached & MACHINERY)) or "none"
            print(f"{product['name']} ({target}): {len(reached)} project targets; machinery: {machinery}")


def main() -> int:
    manifest = json.loads(subprocess.check_output(["swift", "package", "dump-package"], text=True))
    if "--closure" in sys.argv[1:]:
        print_closure(manifest)
        return 0
    problems = transitive_problems(manifest)
    for target in manifest["targets"]:
        name = target["name"]
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        declared = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    module = dependency[kind][0]
                    declared.add(PRODUCT_MODULES.get(module, module))
        imported = {}
        # What the target excludes is not compiled into it (fixtures such as coffer-lint's sample sources).
        excluded = [os.path.join(path, item) for item in target.get("exclude", [])]
        for folder, _, files in os.walk(path):
            if any(folder == item or folder.startswith(item + os.sep) for item in excluded):
                continue
            for file in files:
                if not file.endswith(".swift"):
                    continue
                source_path = os.path.join(folder, file)
                with open(source_path, encoding="utf-8") as source:
                    for module in IMPORT.findall(source.read()):
                        imported.setdefault(module, source_path)
        for module, where in sorted(imported.items()):
            if module in SYSTEM or module == name:
                continue
            if module not in declared:
                problems.append(f"{where}: imports {module}, which Package.swift does not declare for target {name}")
        if name in FRONT_ENDS:
            for module in sorted((set(imported) | declared) & MACHINERY):
                problems.append(f"target {name} (a front end) imports or depends on {module}; go through KeychainClient")
    for problem in problems:
        print(f"check-imports: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(
        f"check-imports: {len(manifest['targets'])} targets: every import declared, no front end reaches below the client seam, "
        f"the client and the daemon transport never reach the engine, only {SELECTION} names both transports")
    return 0


if __name__ == "__main__":
    sys.exit(main())
