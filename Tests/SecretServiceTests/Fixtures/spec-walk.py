# Walks the freedesktop Secret Service API (0.2) as clients use it, against whatever provider owns
# org.freedesktop.secrets on the session bus, and prints one normalized line per observation: results, property
# values and D-Bus error names, with object paths named by role (SESSION, ITEM1, COLLECTION) rather than by the
# provider's own numbering. The same output from gnome-keyring and from coffer-secret-service means the provider
# answers as gnome-keyring does. Run with Debian's python3 and python3-gi.
import sys
import time

from gi.repository import Gio, GLib

BUS_NAME = "org.freedesktop.secrets"
ROOT = "/org/freedesktop/secrets"
SERVICE = "org.freedesktop.Secret.Service"
COLLECTION = "org.freedesktop.Secret.Collection"
ITEM = "org.freedesktop.Secret.Item"
PROPERTIES = "org.freedesktop.DBus.Properties"

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
names = {"/": "/", ROOT: "ROOT"}
counters = {}


def name_of(path):
    """The role of an object path: stable names, whatever numbering the provider uses."""
    if path in names:
        return names[path]
    if path.startswith(ROOT + "/collection/"):
        rest = path[len(ROOT + "/collection/"):]
        if rest in ("login", "session") and "/" not in rest:
            return "COLLECTION(%s)" % rest
        parent, _, leaf = rest.partition("/")
        if leaf:
            kind = "ITEM"
            owner = name_of(ROOT + "/collection/" + parent)
        else:
            kind = "COLLECTION"
            owner = None
    elif path.startswith(ROOT + "/session/"):
        kind, owner = "SESSION", None
    elif path.startswith(ROOT + "/prompt/"):
        kind, owner = "PROMPT", None
    else:
        return "OTHER"
    counters[kind] = counters.get(kind, 0) + 1
    label = "%s%d" % (kind, counters[kind])
    if owner:
        label = "%s@%s" % (label, owner)
    names[path] = label
    return label


def show(value):
    """A value with its object paths named and its dictionaries sorted."""
    if isinstance(value, str) and value.startswith("/"):
        return name_of(value)
    if isinstance(value, (list, tuple)):
        return [show(v) for v in value]
    if isinstance(value, dict):
        return {show(k): show(v) for k, v in sorted(value.items())}
    if isinstance(value, bytes):
        return "bytes:" + value.hex()
    return value


def call(path, interface, method, signature=None, arguments=None, reply=None):
    parameters = GLib.Variant(signature, arguments) if signature else None
    try:
        result = bus.call_sync(BUS_NAME, path, interface, method, parameters,
                               GLib.VariantType(reply) if reply else None, 0, 10000, None)
        return ("ok", result.unpack() if result else None)
    except GLib.Error as error:
        remote = Gio.DBusError.get_remote_error(error)
        return ("error", remote or error.message)


def observe(title, outcome, hide=(), unordered=False):
    kind, value = outcome
    if kind == "ok" and unordered:
        # Lists of paths whose order the API does not specify (search results), compared as sets.
        value = [sorted(show(v)) if isinstance(v, list) else v for v in value]
        print("%s: %s %s" % (title, kind, value))
        return outcome
    if kind == "ok" and hide:
        value = [("…" if index in hide else v) for index, v in enumerate(value)]
    print("%s: %s %s" % (title, kind, show(value) if kind == "ok" else value))
    return outcome


def prop(path, interface, name):
    return call(path, PROPERTIES, "Get", "(ss)", (interface, name))


def set_prop(path, interface, name, value):
    return call(path, PROPERTIES, "Set", "(ssv)", (interface, name, value))


def timestamps_sane(values):
    """Created and Modified as gnome-keyring keeps them: seconds, not in the future, Modified not before Created."""
    created, modified = values.get("Created"), values.get("Modified")
    if created is None or modified is None:
        return "missing"
    if created == 0 and modified == 0:
        return "zero"
    if modified == 0:
        return "created"
    return "ordered" if modified >= created else "disordered"


def without_default_schema(values):
    """gnome-keyring gives an item created without attributes or Type the schema org.freedesktop.Secret.Generic on
    some creations and not on others, by timing (one soon after another create gets none, one after a pause gets
    it): read as no schema, so the walk does not depend on gnome-keyring's timing."""
    values = dict(values)
    if values.get("Type") == "org.freedesktop.Secret.Generic":
        values["Type"] = ""
    attributes = values.get("Attributes")
    if attributes and attributes.get("xdg:schema") == "org.freedesktop.Secret.Generic":
        values["Attributes"] = {k: v for k, v in attributes.items() if k != "xdg:schema"}
    return values


def all_properties(title, path, interface, adjust=None):
    kind, value = call(path, PROPERTIES, "GetAll", "(s)", (interface,))
    if kind != "ok":
        print("%s: error %s" % (title, value))
        return {}
    values = adjust(value[0]) if adjust else value[0]
    shown = {k: v for k, v in values.items() if k not in ("Created", "Modified")}
    print("%s: ok %s timestamps=%s" % (title, show(shown), timestamps_sane(values)))
    return values


# The service object.
observe("service Collections contains login", ("ok", ROOT + "/collection/login" in prop(ROOT, SERVICE, "Collections")[1][0]))
observe("service Collections contains session", ("ok", ROOT + "/collection/session" in prop(ROOT, SERVICE, "Collections")[1][0]))
observe("service unknown property", prop(ROOT, SERVICE, "NoSuchProperty"))
observe("service set Collections", set_prop(ROOT, SERVICE, "Collections", GLib.Variant("ao", [])))
observe("service unknown method", call(ROOT, SERVICE, "NoSuchMethod"))
observe("OpenSession bogus algorithm", call(ROOT, SERVICE, "OpenSession", "(sv)", ("bogus", GLib.Variant("s", ""))))
observe("OpenSession plain with bytes input", call(ROOT, SERVICE, "OpenSession", "(sv)", ("plain", GLib.Variant("ay", b"x"))))
kind, opened = observe("OpenSession plain", call(ROOT, SERVICE, "OpenSession", "(sv)", ("plain", GLib.Variant("s", ""))))
session = opened[1]
for alias in ("default", "login", "session", "nosuchalias"):
    observe("ReadAlias " + alias, call(ROOT, SERVICE, "ReadAlias", "(s)", (alias,)))

# The login collection.
login = ROOT + "/collection/login"
before = all_properties("login GetAll", login, COLLECTION)
observe("login Locked", prop(login, COLLECTION, "Locked"))
observe("login set Locked", set_prop(login, COLLECTION, "Locked", GLib.Variant("b", True)))
observe("login set Label wrong type", set_prop(login, COLLECTION, "Label", GLib.Variant("u", 3)))
observe("login set Label", set_prop(login, COLLECTION, "Label", GLib.Variant("s", "Walked")))
observe("login Label after", prop(login, COLLECTION, "Label"))
observe("login set Label back", set_prop(login, COLLECTION, "Label", GLib.Variant("s", before.get("Label", "Login"))))

# Items: create, read, search, change, replace, delete.
secret = (session, b"", b"hunter2", "text/plain")
attributes = {"service": "walk.example", "user": "alice", "xdg:schema": "org.example.Walk"}
properties = {ITEM + ".Label": GLib.Variant("s", "Walk item"), ITEM + ".Attributes": GLib.Variant("a{ss}", attributes)}
kind, created = observe("CreateItem", call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)", (properties, secret, False)))
item = created[0] if kind == "ok" else "/"
# Replacing while one item matches; then a second item with the same attributes (which of two a later replace
# would take is not specified: gnome-keyring's order is its hash table's).
observe("CreateItem same attributes replace=true",
        call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)", (properties, (session, b"", b"hunter3", "text/plain"), True)))
observe("CreateItem same attributes replace=false", call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)", (properties, secret, False)))
observe("CreateItem no session", call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)",
                                      (properties, (ROOT + "/session/nosuch", b"", b"x", "text/plain"), False)))
observe("CreateItem bad attributes type", call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)",
                                               ({ITEM + ".Attributes": GLib.Variant("s", "x")}, secret, False)))
kind, bare = observe("CreateItem empty properties", call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)", ({}, secret, False)))
if kind == "ok":
    all_properties("bare item GetAll", bare[0], ITEM, adjust=without_default_schema)
    observe("bare item set Type", set_prop(bare[0], ITEM, "Type", GLib.Variant("s", "org.example.Typed")))
    # gnome-keyring applies the Type to the schema attribute a moment after answering the Set: read until it shows.
    attributes_after = prop(bare[0], ITEM, "Attributes")
    for _ in range(40):
        if "org.example.Typed" in repr(attributes_after):
            break
        time.sleep(0.05)
        attributes_after = prop(bare[0], ITEM, "Attributes")
    observe("bare item Attributes after Type", attributes_after)
    observe("bare item Delete", call(bare[0], ITEM, "Delete"))
typed = {ITEM + ".Label": GLib.Variant("s", "Typed"), ITEM + ".Type": GLib.Variant("s", "org.example.Other"),
         ITEM + ".Attributes": GLib.Variant("a{ss}", {"service": "typed.example"})}
kind, typedItem = observe("CreateItem with Type", call(login, COLLECTION, "CreateItem", "(a{sv}(oayays)b)", (typed, secret, False)))
if kind == "ok":
    all_properties("typed item GetAll", typedItem[0], ITEM)
    observe("typed item set Type wrong type", set_prop(typedItem[0], ITEM, "Type", GLib.Variant("u", 1)))
    observe("typed item set Attributes wrong type", set_prop(typedItem[0], ITEM, "Attributes", GLib.Variant("s", "x")))
    observe("typed item set Label wrong type", set_prop(typedItem[0], ITEM, "Label", GLib.Variant("u", 1)))
    observe("SearchItems by schema", call(ROOT, SERVICE, "SearchItems", "(a{ss})", ({"xdg:schema": "org.example.Other"},)), unordered=True)
    observe("typed item Delete", call(typedItem[0], ITEM, "Delete"))
all_properties("item GetAll", item, ITEM)
observe("item Locked", prop(item, ITEM, "Locked"))
observe("item GetSecret", call(item, ITEM, "GetSecret", "(o)", (session,)))
observe("item GetSecret no session", call(item, ITEM, "GetSecret", "(o)", (ROOT + "/session/nosuch",)))
observe("GetSecrets", call(ROOT, SERVICE, "GetSecrets", "(aoo)", ([item], session)))
observe("GetSecrets unknown item", call(ROOT, SERVICE, "GetSecrets", "(aoo)", ([login + "/nosuch"], session)))
observe("SearchItems service", call(ROOT, SERVICE, "SearchItems", "(a{ss})", ({"service": "walk.example"},)), unordered=True)
observe("SearchItems collection", call(login, COLLECTION, "SearchItems", "(a{ss})", ({"service": "walk.example"},)), unordered=True)
observe("SearchItems nothing", call(ROOT, SERVICE, "SearchItems", "(a{ss})", ({"service": "nothing.example"},)))
observe("SearchItems empty", call(login, COLLECTION, "SearchItems", "(a{ss})", ({"user": "nobody-at-all"},)))
observe("item set Label", set_prop(item, ITEM, "Label", GLib.Variant("s", "Renamed")))
observe("item Label after", prop(item, ITEM, "Label"))
observe("item set Attributes", set_prop(item, ITEM, "Attributes", GLib.Variant("a{ss}", {"service": "walk.example", "user": "bob"})))
observe("item Attributes after", prop(item, ITEM, "Attributes"))
observe("item set Locked", set_prop(item, ITEM, "Locked", GLib.Variant("b", True)))
observe("item SetSecret", call(item, ITEM, "SetSecret", "((oayays))", ((session, b"", b"changed", "text/plain"),)))
observe("item GetSecret after SetSecret", call(item, ITEM, "GetSecret", "(o)", (session,)))
observe("item SetSecret no session", call(item, ITEM, "SetSecret", "((oayays))", ((ROOT + "/session/nosuch", b"", b"x", "text/plain"),)))
observe("Unlock item", call(ROOT, SERVICE, "Unlock", "(ao)", ([item],)))
observe("Unlock nothing", call(ROOT, SERVICE, "Unlock", "(ao)", ([],)))
observe("login Items has item", ("ok", item in prop(login, COLLECTION, "Items")[1][0]))
observe("item Delete", call(item, ITEM, "Delete"))
observe("item after Delete", prop(item, ITEM, "Label"))
observe("item GetSecret after Delete", call(item, ITEM, "GetSecret", "(o)", (session,)))
observe("login Items has item after Delete", ("ok", item in prop(login, COLLECTION, "Items")[1][0]))
observe("unknown item path", prop(login + "/nosuchitem", ITEM, "Label"))

# The session collection: items live only as long as the provider.
sessionCollection = ROOT + "/collection/session"
all_properties("session GetAll", sessionCollection, COLLECTION)
kind, created = observe("session CreateItem", call(sessionCollection, COLLECTION, "CreateItem", "(a{sv}(oayays)b)", (properties, secret, False)))
if kind == "ok":
    observe("session item GetSecret", call(created[0], ITEM, "GetSecret", "(o)", (session,)))
    observe("session item Delete", call(created[0], ITEM, "Delete"))

# Aliases.
observe("SetAlias unknown collection", call(ROOT, SERVICE, "SetAlias", "(so)", ("walkalias", ROOT + "/collection/nosuch")))
observe("SetAlias other alias to login", call(ROOT, SERVICE, "SetAlias", "(so)", ("walkalias", login)))
observe("ReadAlias walkalias", call(ROOT, SERVICE, "ReadAlias", "(s)", ("walkalias",)))
observe("SetAlias default unknown collection", call(ROOT, SERVICE, "SetAlias", "(so)", ("default", ROOT + "/collection/nosuch")))
observe("SetAlias default to session", call(ROOT, SERVICE, "SetAlias", "(so)", ("default", sessionCollection)))
observe("ReadAlias default after", call(ROOT, SERVICE, "ReadAlias", "(s)", ("default",)))
observe("SetAlias default to login", call(ROOT, SERVICE, "SetAlias", "(so)", ("default", login)))
observe("ReadAlias default back", call(ROOT, SERVICE, "ReadAlias", "(s)", ("default",)))

# Closing the session ends it.
observe("session Close", call(session, "org.freedesktop.Secret.Session", "Close"))
observe("GetSecrets after Close", call(ROOT, SERVICE, "GetSecrets", "(aoo)", ([], session)))
sys.stdout.flush()
