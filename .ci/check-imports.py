#!/usr/bin/env python3
"""Checks the module layout the architecture promises (docs/ARCHITECTURE.md), from the sources:

1. every module a target imports is declared in Package.swift as one of that target's dependencies
   (a module reached only through another target's dependencies builds today and breaks tomorrow);
2. no front end imports, or depends on, the key hierarchy, the engine or the store: front ends speak
   to a keychain only through KeychainClient.

Exits non-zero, naming each offence, when either is broken. Run from the package root.
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
MACHINERY = {"Keystore", "Engine", "ItemStore", "KeychainService"}
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


def main() -> int:
    manifest = json.loads(subprocess.check_output(["swift", "package", "dump-package"], text=True))
    problems = []
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
        for folder, _, files in os.walk(path):
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
    print(f"check-imports: {len(manifest['targets'])} targets: every import declared, no front end reaches below the client seam")
    return 0


if __name__ == "__main__":
    sys.exit(main())
