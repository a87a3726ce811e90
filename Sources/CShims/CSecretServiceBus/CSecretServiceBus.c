#include "CSecretServiceBus.h"
#include "CSystemdBus.h"
#include "CSystemdLoader.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct coffer_secret_registration {
    coffer_secret_handler handler;
    void *context;
};

// MARK: Trampolines: every entry of every vtable below lands in the registered handler.

static int on_method(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    coffer_secret_registration *registration = userdata;
    return registration->handler(registration->context, COFFER_SECRET_CALL, sd_bus_message_get_path(message),
                                 sd_bus_message_get_interface(message), sd_bus_message_get_member(message), message,
                                 error);
}

static int on_get(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                  void *userdata, sd_bus_error *error) {
    (void)bus;
    coffer_secret_registration *registration = userdata;
    return registration->handler(registration->context, COFFER_SECRET_GET, path, interface, property, reply, error);
}

static int on_set(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *value,
                  void *userdata, sd_bus_error *error) {
    (void)bus;
    coffer_secret_registration *registration = userdata;
    return registration->handler(registration->context, COFFER_SECRET_SET, path, interface, property, value, error);
}

static int on_find(sd_bus *bus, const char *path, const char *interface, void *userdata, void **found,
                   sd_bus_error *error) {
    (void)bus;
    coffer_secret_registration *registration = userdata;
    int r = registration->handler(registration->context, COFFER_SECRET_FIND, path, interface, NULL, NULL, error);
    if (r > 0) {
        *found = userdata;
        return 1;
    }
    return r < 0 ? r : 0;
}

// A method call that no object took: as gnome-keyring (GDBus) answers it when nothing exists at the path,
// `org.freedesktop.DBus.Error.UnknownMethod` "Object does not exist at path …", which clients such as
// SecretStorage read as "no such item" (sd-bus would say UnknownObject, which they do not know). A path where
// an object exists under another interface, and introspection (which walks the tree from "/"), are left to
// sd-bus's own answers.
static int on_unclaimed_call(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    static const char *const interfaces[] = {
        "org.freedesktop.Secret.Collection", "org.freedesktop.Secret.Item", "org.freedesktop.Secret.Session",
        "org.freedesktop.Secret.Prompt",
    };
    static const char prefix[] = "/org/freedesktop/secrets/";
    coffer_secret_registration *registration = userdata;
    const char *path = sd_bus_message_get_path(message);
    const char *interface = sd_bus_message_get_interface(message);
    if (path == NULL || strcmp(path, "/org/freedesktop/secrets") == 0 ||
        (interface != NULL && strcmp(interface, "org.freedesktop.DBus.Introspectable") == 0)) {
        return 0;
    }
    if (strncmp(path, prefix, sizeof(prefix) - 1) == 0) {
        for (size_t index = 0; index < sizeof(interfaces) / sizeof(interfaces[0]); index++) {
            int r = registration->handler(registration->context, COFFER_SECRET_FIND, path, interfaces[index], NULL, NULL,
                                          error);
            if (r != 0) {
                return r < 0 ? r : 0;
            }
        }
    }
    return sd_bus_reply_method_errorf(message, "org.freedesktop.DBus.Error.UnknownMethod",
                                      "Object does not exist at path \xe2\x80\x9c%s\xe2\x80\x9d", path);
}

// MARK: The interfaces of the Secret Service API, version 0.2

#define METHOD(name, in, in_names, out, out_names) \
    SD_BUS_METHOD_WITH_NAMES(name, in, in_names, out, out_names, on_method, SD_BUS_VTABLE_UNPRIVILEGED)

static sd_bus_vtable service_vtable[] = {
    COFFER_SD_BUS_VTABLE_START(0),
    METHOD("OpenSession", "sv", SD_BUS_PARAM(algorithm) SD_BUS_PARAM(input), "vo",
           SD_BUS_PARAM(output) SD_BUS_PARAM(result)),
    METHOD("CreateCollection", "a{sv}s", SD_BUS_PARAM(properties) SD_BUS_PARAM(alias), "oo",
           SD_BUS_PARAM(collection) SD_BUS_PARAM(prompt)),
    METHOD("SearchItems", "a{ss}", SD_BUS_PARAM(attributes), "aoao", SD_BUS_PARAM(unlocked) SD_BUS_PARAM(locked)),
    METHOD("Unlock", "ao", SD_BUS_PARAM(objects), "aoo", SD_BUS_PARAM(unlocked) SD_BUS_PARAM(prompt)),
    METHOD("Lock", "ao", SD_BUS_PARAM(objects), "aoo", SD_BUS_PARAM(locked) SD_BUS_PARAM(Prompt)),
    METHOD("GetSecrets", "aoo", SD_BUS_PARAM(items) SD_BUS_PARAM(session), "a{o(oayays)}", SD_BUS_PARAM(secrets)),
    METHOD("ReadAlias", "s", SD_BUS_PARAM(name), "o", SD_BUS_PARAM(collection)),
    METHOD("SetAlias", "so", SD_BUS_PARAM(name) SD_BUS_PARAM(collection), "", ""),
    SD_BUS_PROPERTY("Collections", "ao", on_get, 0, 0),
    SD_BUS_SIGNAL_WITH_NAMES("CollectionCreated", "o", SD_BUS_PARAM(collection), 0),
    SD_BUS_SIGNAL_WITH_NAMES("CollectionDeleted", "o", SD_BUS_PARAM(collection), 0),
    SD_BUS_SIGNAL_WITH_NAMES("CollectionChanged", "o", SD_BUS_PARAM(collection), 0),
    SD_BUS_VTABLE_END,
};

static sd_bus_vtable collection_vtable[] = {
    COFFER_SD_BUS_VTABLE_START(0),
    METHOD("Delete", "", "", "o", SD_BUS_PARAM(prompt)),
    METHOD("SearchItems", "a{ss}", SD_BUS_PARAM(attributes), "ao", SD_BUS_PARAM(results)),
    METHOD("CreateItem", "a{sv}(oayays)b", SD_BUS_PARAM(properties) SD_BUS_PARAM(secret) SD_BUS_PARAM(replace), "oo",
           SD_BUS_PARAM(item) SD_BUS_PARAM(prompt)),
    SD_BUS_PROPERTY("Items", "ao", on_get, 0, 0),
    SD_BUS_WRITABLE_PROPERTY("Label", "s", on_get, on_set, 0, 0),
    SD_BUS_PROPERTY("Locked", "b", on_get, 0, 0),
    SD_BUS_PROPERTY("Created", "t", on_get, 0, 0),
    SD_BUS_PROPERTY("Modified", "t", on_get, 0, 0),
    SD_BUS_SIGNAL_WITH_NAMES("ItemCreated", "o", SD_BUS_PARAM(item), 0),
    SD_BUS_SIGNAL_WITH_NAMES("ItemDeleted", "o", SD_BUS_PARAM(item), 0),
    SD_BUS_SIGNAL_WITH_NAMES("ItemChanged", "o", SD_BUS_PARAM(item), 0),
    SD_BUS_VTABLE_END,
};

static sd_bus_vtable item_vtable[] = {
    COFFER_SD_BUS_VTABLE_START(0),
    METHOD("Delete", "", "", "o", SD_BUS_PARAM(Prompt)),
    METHOD("GetSecret", "o", SD_BUS_PARAM(session), "(oayays)", SD_BUS_PARAM(secret)),
    METHOD("SetSecret", "(oayays)", SD_BUS_PARAM(secret), "", ""),
    SD_BUS_PROPERTY("Locked", "b", on_get, 0, 0),
    SD_BUS_WRITABLE_PROPERTY("Attributes", "a{ss}", on_get, on_set, 0, 0),
    SD_BUS_WRITABLE_PROPERTY("Label", "s", on_get, on_set, 0, 0),
    // gnome-keyring's: the item's schema (its `xdg:schema` attribute).
    SD_BUS_WRITABLE_PROPERTY("Type", "s", on_get, on_set, 0, 0),
    SD_BUS_PROPERTY("Created", "t", on_get, 0, 0),
    SD_BUS_PROPERTY("Modified", "t", on_get, 0, 0),
    SD_BUS_VTABLE_END,
};

static sd_bus_vtable session_vtable[] = {
    COFFER_SD_BUS_VTABLE_START(0),
    METHOD("Close", "", "", "", ""),
    SD_BUS_VTABLE_END,
};

static sd_bus_vtable prompt_vtable[] = {
    COFFER_SD_BUS_VTABLE_START(0),
    METHOD("Prompt", "s", SD_BUS_PARAM(window_id), "", ""),
    METHOD("Dismiss", "", "", "", ""),
    SD_BUS_SIGNAL_WITH_NAMES("Completed", "bv", SD_BUS_PARAM(dismissed) SD_BUS_PARAM(result), 0),
    SD_BUS_VTABLE_END,
};

// MARK: Property errors as gnome-keyring (GDBus) names them

// Whether `interface` has the property `name`: -1 for an interface not served here, 0 for no such property, 1 for
// a read-only one, 2 for a writable one (the vtables above).
static int property_access(const char *interface, const char *name) {
    static const struct {
        const char *interface, *name;
        int writable;
    } properties[] = {
        {"org.freedesktop.Secret.Service", "Collections", 0},   {"org.freedesktop.Secret.Collection", "Items", 0},
        {"org.freedesktop.Secret.Collection", "Label", 1},      {"org.freedesktop.Secret.Collection", "Locked", 0},
        {"org.freedesktop.Secret.Collection", "Created", 0},    {"org.freedesktop.Secret.Collection", "Modified", 0},
        {"org.freedesktop.Secret.Item", "Locked", 0},           {"org.freedesktop.Secret.Item", "Attributes", 1},
        {"org.freedesktop.Secret.Item", "Label", 1},            {"org.freedesktop.Secret.Item", "Type", 1},
        {"org.freedesktop.Secret.Item", "Created", 0},          {"org.freedesktop.Secret.Item", "Modified", 0},
    };
    int served = 0;
    for (size_t index = 0; index < sizeof(properties) / sizeof(properties[0]); index++) {
        if (strcmp(properties[index].interface, interface) != 0) {
            continue;
        }
        served = 1;
        if (strcmp(properties[index].name, name) == 0) {
            return properties[index].writable ? 2 : 1;
        }
    }
    return served ? 0 : -1;
}

// `Properties.Get` of a property an interface does not have, and `Properties.Set` of one it has read-only, on an
// object that exists: answered `org.freedesktop.DBus.Error.InvalidArgs`, as gnome-keyring (GDBus) answers them,
// where sd-bus would say UnknownProperty or PropertyReadOnly. Every other message is left to sd-bus, the message
// rewound.
static int on_property_filter(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    coffer_secret_registration *registration = userdata;
    if (!sd_bus_message_is_method_call(message, "org.freedesktop.DBus.Properties", NULL)) {
        return 0;
    }
    const char *member = sd_bus_message_get_member(message);
    const char *path = sd_bus_message_get_path(message);
    int set = member != NULL && strcmp(member, "Set") == 0;
    if (member == NULL || path == NULL || (!set && strcmp(member, "Get") != 0) ||
        strncmp(path, "/org/freedesktop/secrets", strlen("/org/freedesktop/secrets")) != 0) {
        return 0;
    }
    const char *interface = NULL, *name = NULL;
    int read = sd_bus_message_read(message, "ss", &interface, &name);
    int access = read >= 0 ? property_access(interface, name) : -1;
    int exists = access >= 0 && (strcmp(interface, "org.freedesktop.Secret.Service") == 0
                                     ? strcmp(path, "/org/freedesktop/secrets") == 0
                                     : registration->handler(registration->context, COFFER_SECRET_FIND, path, interface,
                                                             NULL, NULL, error) > 0);
    if (exists && access == 0) {
        return sd_bus_reply_method_errorf(message, "org.freedesktop.DBus.Error.InvalidArgs",
                                          "No such property \xe2\x80\x9c%s\xe2\x80\x9d", name);
    }
    if (exists && set && access == 1) {
        return sd_bus_reply_method_errorf(message, "org.freedesktop.DBus.Error.InvalidArgs",
                                          "Property \xe2\x80\x9c%s\xe2\x80\x9d is not writable", name);
    }
    sd_bus_message_rewind(message, 1);
    return 0;
}

// MARK: Connection and registration

static pthread_once_t vtables_marked = PTHREAD_ONCE_INIT;

// Gives each vtable libsystemd's format marker, which a static table cannot name before libsystemd is loaded.
static void mark_vtables(void) {
    sd_bus_vtable *vtables[] = {service_vtable, collection_vtable, item_vtable, session_vtable, prompt_vtable};
    for (size_t index = 0; index < sizeof(vtables) / sizeof(vtables[0]); index++) {
        vtables[index][0].x.start.vtable_format_reference = coffer_systemd()->sd_bus_object_vtable_format;
    }
}

int coffer_secret_bus_open(const char *address, sd_bus **ret) {
    return coffer_bus_connect(address, COFFER_BUS_SESSION, ret);
}

int coffer_secret_serve(sd_bus *bus, coffer_secret_handler handler, void *context, coffer_secret_registration **ret) {
    *ret = NULL;
    coffer_secret_registration *registration = malloc(sizeof(coffer_secret_registration));
    if (registration == NULL) {
        return -ENOMEM;
    }
    registration->handler = handler;
    registration->context = context;
    pthread_once(&vtables_marked, mark_vtables);
    const char *collection = "org.freedesktop.Secret.Collection";
    int r = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service",
                                     service_vtable, registration);
    if (r >= 0) {
        r = sd_bus_add_fallback_vtable(bus, NULL, "/org/freedesktop/secrets/collection", collection,
                                       collection_vtable, on_find, registration);
    }
    if (r >= 0) {
        r = sd_bus_add_fallback_vtable(bus, NULL, "/org/freedesktop/secrets/aliases", collection, collection_vtable,
                                       on_find, registration);
    }
    if (r >= 0) {
        r = sd_bus_add_fallback_vtable(bus, NULL, "/org/freedesktop/secrets/collection",
                                       "org.freedesktop.Secret.Item", item_vtable, on_find, registration);
    }
    if (r >= 0) {
        r = sd_bus_add_fallback_vtable(bus, NULL, "/org/freedesktop/secrets/session",
                                       "org.freedesktop.Secret.Session", session_vtable, on_find, registration);
    }
    if (r >= 0) {
        r = sd_bus_add_fallback_vtable(bus, NULL, "/org/freedesktop/secrets/prompt", "org.freedesktop.Secret.Prompt",
                                       prompt_vtable, on_find, registration);
    }
    if (r >= 0) {
        // Reached only for calls no object above took: sd-bus tries the longest prefixes first.
        r = sd_bus_add_fallback(bus, NULL, "/", on_unclaimed_call, registration);
    }
    if (r >= 0) {
        r = sd_bus_add_filter(bus, NULL, on_property_filter, registration);
    }
    // Even on failure the vtables added so far point to the registration: the caller closes the bus, then
    // releases it.
    *ret = registration;
    return r < 0 ? r : 0;
}

void coffer_secret_release(coffer_secret_registration *registration) {
    free(registration);
}

static int on_name_owner_changed(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    coffer_secret_registration *registration = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd_bus_message_read(message, "sss", &name, &old_owner, &new_owner) < 0) {
        return 0;
    }
    // A unique name that loses its owner is a connection gone; it never comes back.
    if (name[0] == ':' && new_owner[0] == '\0') {
        (void)registration->handler(registration->context, COFFER_SECRET_DEPARTED, "/org/freedesktop/DBus",
                                    "org.freedesktop.DBus", name, message, error);
    }
    return 0;
}

int coffer_secret_watch_departures(sd_bus *bus, coffer_secret_registration *registration) {
    return sd_bus_match_signal(bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "NameOwnerChanged", on_name_owner_changed, registration);
}

int coffer_secret_request_name(sd_bus *bus, const char *name) {
    return sd_bus_request_name(bus, name, 0);
}

int coffer_secret_bus_step(sd_bus *bus, uint64_t timeout_usec) {
    for (;;) {
        int r = sd_bus_process(bus, NULL);
        if (r < 0) {
            return r;
        }
        if (r == 0) {
            break;
        }
    }
    int r = sd_bus_wait(bus, timeout_usec);
    return (r < 0 && r != -EINTR) ? r : 0;
}

// MARK: Replies and signals

int coffer_secret_reply_new(sd_bus_message *call, sd_bus_message **reply) {
    return sd_bus_message_new_method_return(call, reply);
}

int coffer_secret_signal_new(sd_bus *bus, const char *path, const char *interface, const char *member,
                             sd_bus_message **signal) {
    return sd_bus_message_new_signal(bus, signal, path, interface, member);
}

int coffer_secret_send(sd_bus_message *message) {
    int r = sd_bus_send(NULL, message, NULL);
    sd_bus_message_unref(message);
    return r;
}

int coffer_secret_error(sd_bus_error *error, const char *name, const char *text) {
    return sd_bus_error_set(error, name, text);
}

const char *coffer_secret_sender(sd_bus_message *message) {
    return sd_bus_message_get_sender(message);
}

const char *coffer_secret_current_sender(sd_bus *bus) {
    sd_bus_message *current = sd_bus_get_current_message(bus);
    return current ? sd_bus_message_get_sender(current) : NULL;
}

// MARK: Callers

static int read_groups(sd_bus_message *reply, coffer_secret_credentials *out) {
    int r = sd_bus_message_enter_container(reply, 'a', "u");
    if (r < 0) return r;
    size_t capacity = 0;
    for (;;) {
        uint32_t gid;
        r = sd_bus_message_read_basic(reply, 'u', &gid);
        if (r < 0) return r;
        if (r == 0) break;
        if (out->group_count == COFFER_SECRET_MAX_GROUPS) return -E2BIG;
        if (out->group_count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            uint32_t *grown = realloc(out->groups, capacity * sizeof(uint32_t));
            if (!grown) return -ENOMEM;
            out->groups = grown;
        }
        out->groups[out->group_count++] = gid;
    }
    return sd_bus_message_exit_container(reply);
}

static int read_label(sd_bus_message *reply, coffer_secret_credentials *out) {
    const void *bytes = NULL;
    size_t count = 0;
    int r = sd_bus_message_read_array(reply, 'y', &bytes, &count);
    if (r < 0) return r;
    // The label is NUL-terminated on the bus; anything after the first NUL is dropped.
    size_t length = strnlen(bytes, count);
    if (length == 0) return 0;
    out->label = strndup(bytes, length);
    return out->label ? 0 : -ENOMEM;
}

static int read_credential(sd_bus_message *reply, coffer_secret_credentials *out) {
    const char *key = NULL;
    int r = sd_bus_message_read_basic(reply, 's', &key);
    if (r < 0) return r;
    const char *contents = NULL;
    char type = 0;
    r = sd_bus_message_peek_type(reply, &type, &contents);
    if (r < 0) return r;
    if (strcmp(key, "UnixUserID") == 0 && contents && strcmp(contents, "u") == 0) {
        out->has_uid = 1;
        return sd_bus_message_read(reply, "v", "u", &out->uid);
    }
    if (strcmp(key, "ProcessID") == 0 && contents && strcmp(contents, "u") == 0) {
        out->has_pid = 1;
        return sd_bus_message_read(reply, "v", "u", &out->pid);
    }
    if (strcmp(key, "UnixGroupIDs") == 0 && contents && strcmp(contents, "au") == 0) {
        if ((r = sd_bus_message_enter_container(reply, 'v', "au")) < 0) return r;
        if ((r = read_groups(reply, out)) < 0) return r;
        return sd_bus_message_exit_container(reply);
    }
    if (strcmp(key, "LinuxSecurityLabel") == 0 && contents && strcmp(contents, "ay") == 0) {
        if ((r = sd_bus_message_enter_container(reply, 'v', "ay")) < 0) return r;
        if ((r = read_label(reply, out)) < 0) return r;
        return sd_bus_message_exit_container(reply);
    }
    return sd_bus_message_skip(reply, "v");
}

int coffer_secret_credentials_of(sd_bus *bus, const char *name, coffer_secret_credentials *out) {
    memset(out, 0, sizeof(*out));
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "GetConnectionCredentials", &error, &reply, "s", name);
    if (r < 0) {
        if (sd_bus_error_has_name(&error, "org.freedesktop.DBus.Error.NameHasNoOwner")) r = -ESRCH;
        sd_bus_error_free(&error);
        return r;
    }
    r = sd_bus_message_enter_container(reply, 'a', "{sv}");
    while (r >= 0 && (r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
        r = read_credential(reply, out);
        if (r >= 0) r = sd_bus_message_exit_container(reply);
    }
    if (r >= 0) r = sd_bus_message_exit_container(reply);
    sd_bus_message_unref(reply);
    if (r < 0) {
        coffer_secret_credentials_free(out);
        return r;
    }
    return 0;
}

void coffer_secret_credentials_free(coffer_secret_credentials *credentials) {
    free(credentials->groups);
    free(credentials->label);
    credentials->groups = NULL;
    credentials->label = NULL;
    credentials->group_count = 0;
}

// MARK: Writing

int coffer_secret_append_string(sd_bus_message *message, const char *value) {
    return sd_bus_message_append_basic(message, 's', value);
}

int coffer_secret_append_object_path(sd_bus_message *message, const char *value) {
    return sd_bus_message_append_basic(message, 'o', value);
}

int coffer_secret_append_bool(sd_bus_message *message, int value) {
    int boolean = value ? 1 : 0;
    return sd_bus_message_append_basic(message, 'b', &boolean);
}

int coffer_secret_append_uint64(sd_bus_message *message, uint64_t value) {
    return sd_bus_message_append_basic(message, 't', &value);
}

int coffer_secret_append_bytes(sd_bus_message *message, const void *bytes, size_t count) {
    static const char empty = 0;
    return sd_bus_message_append_array(message, 'y', count > 0 ? bytes : &empty, count);
}

int coffer_secret_open(sd_bus_message *message, char type, const char *contents) {
    return sd_bus_message_open_container(message, type, contents);
}

int coffer_secret_close(sd_bus_message *message) {
    return sd_bus_message_close_container(message);
}

// MARK: Reading

int coffer_secret_read_string(sd_bus_message *message, char type, const char **value) {
    return sd_bus_message_read_basic(message, type, value);
}

int coffer_secret_read_bool(sd_bus_message *message, int *value) {
    return sd_bus_message_read_basic(message, 'b', value);
}

int coffer_secret_read_bytes(sd_bus_message *message, const void **bytes, size_t *count) {
    return sd_bus_message_read_array(message, 'y', bytes, count);
}

int coffer_secret_enter(sd_bus_message *message, char type, const char *contents) {
    return sd_bus_message_enter_container(message, type, contents);
}

int coffer_secret_exit(sd_bus_message *message) {
    return sd_bus_message_exit_container(message);
}

int coffer_secret_peek(sd_bus_message *message, char *type, const char **contents) {
    *type = 0;
    *contents = NULL;
    return sd_bus_message_peek_type(message, type, contents);
}

int coffer_secret_skip(sd_bus_message *message) {
    return sd_bus_message_skip(message, NULL);
}

// MARK: Calling another provider

int coffer_secret_call_new(sd_bus *bus, const char *destination, const char *path, const char *interface,
                           const char *member, sd_bus_message **ret) {
    return sd_bus_message_new_method_call(bus, ret, destination, path, interface, member);
}

int coffer_secret_call(sd_bus *bus, sd_bus_message *call, uint64_t timeout_usec, sd_bus_message **reply,
                       char **error_name) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    *reply = NULL;
    *error_name = NULL;
    int r = sd_bus_call(bus, call, timeout_usec, &error, reply);
    sd_bus_message_unref(call);
    if (r < 0 && error.name != NULL) {
        *error_name = strdup(error.name);
    }
    sd_bus_error_free(&error);
    return r;
}

static int on_caught(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)error;
    coffer_secret_caught *caught = userdata;
    if (!caught->received) {
        caught->received = 1;
        caught->message = sd_bus_message_ref(message);
    }
    return 0;
}

int coffer_secret_catch_signal(sd_bus *bus, const char *sender, const char *path, const char *interface,
                               const char *member, coffer_secret_caught *caught, sd_bus_slot **slot) {
    caught->received = 0;
    caught->message = NULL;
    return sd_bus_match_signal(bus, slot, sender, path, interface, member, on_caught, caught);
}

int coffer_secret_read_uint64(sd_bus_message *message, uint64_t *value) {
    return sd_bus_message_read_basic(message, 't', value);
}

int coffer_secret_read_uint32(sd_bus_message *message, uint32_t *value) {
    return sd_bus_message_read_basic(message, 'u', value);
}
