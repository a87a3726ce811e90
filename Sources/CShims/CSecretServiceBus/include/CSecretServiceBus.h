#ifndef C_SECRET_SERVICE_BUS_H
#define C_SECRET_SERVICE_BUS_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/// What the bus asks the Secret Service provider to do.
typedef enum {
    /// A method call: `message` is the call; the handler sends the reply itself (coffer_secret_reply_*).
    COFFER_SECRET_CALL = 0,
    /// A property read: `message` is the reply to append the property's value to (without a variant).
    COFFER_SECRET_GET = 1,
    /// A property write: `message` holds the new value, ready to read (without a variant).
    COFFER_SECRET_SET = 2,
    /// Whether an object exists at `path` with `interface` (fallback paths): the handler answers > 0 when it does.
    COFFER_SECRET_FIND = 3,
    /// A client left the bus (coffer_secret_watch_departures): `member` is its unique name (":1.42"), `message`
    /// the bus's NameOwnerChanged signal; `path` and `interface` are the bus's own. The result is ignored.
    COFFER_SECRET_DEPARTED = 4,
} coffer_secret_event;

/// The one function the provider registers: every method call, property read or write and object lookup
/// of the five Secret Service interfaces arrives here, on the thread that runs sd_bus_process. `context` is
/// the pointer given to coffer_secret_serve; `member` is the method or property (NULL for a lookup).
/// Returns >= 0 on success; a negative errno, or the value of sd_bus_error_set on `error`, to fail.
typedef int (*coffer_secret_handler)(void *context, coffer_secret_event event, const char *path,
                                     const char *interface, const char *member, sd_bus_message *message,
                                     sd_bus_error *error);

/// Where the handler is registered: made by coffer_secret_serve, released by coffer_secret_release after
/// the bus connection that uses it is closed. It is the only registration point of the trampolines, set
/// once and never changed: each vtable's user data points to it, so there is no global state.
typedef struct coffer_secret_registration coffer_secret_registration;

/// Opens a connection to the session bus (sd_bus_open_user, which honours DBUS_SESSION_BUS_ADDRESS), or
/// to the bus at `address` when it is not NULL. Returns 0 with `*ret` set, or a negative errno.
int coffer_secret_bus_open(const char *address, sd_bus **ret);

/// Exports the Secret Service objects on `bus` (org.freedesktop.Secret.Service at /org/freedesktop/secrets;
/// Collection under /org/freedesktop/secrets/collection/ and /org/freedesktop/secrets/aliases/; Item under
/// /org/freedesktop/secrets/collection/; Session and Prompt under their own prefixes, found through
/// `handler` with COFFER_SECRET_FIND), every member answered by `handler` with `context`. A call to a path
/// where no object exists is answered as gnome-keyring answers it (org.freedesktop.DBus.Error.UnknownMethod,
/// "Object does not exist at path …"). Does not take the name: call sd_bus_request_name afterwards. Returns 0 with `*ret` set, or a negative errno.
int coffer_secret_serve(sd_bus *bus, coffer_secret_handler handler, void *context, coffer_secret_registration **ret);

/// Frees a registration made by coffer_secret_serve, once its bus connection is closed.
void coffer_secret_release(coffer_secret_registration *registration);

/// Watches the bus's NameOwnerChanged signal, so that `registration`'s handler hears of every client that
/// leaves the bus (COFFER_SECRET_DEPARTED). The match lives as long as the connection. Returns 0 or a
/// negative errno.
int coffer_secret_watch_departures(sd_bus *bus, coffer_secret_registration *registration);

/// Takes the well-known name `name` on `bus` (no replacement, no queueing). Returns 0 or a negative errno
/// (-EEXIST when another connection owns it).
int coffer_secret_request_name(sd_bus *bus, const char *name);

/// Processes what is pending on `bus`, then waits at most `timeout_usec` for more (sd_bus_process, then
/// sd_bus_wait). Returns >= 0, or a negative errno when the connection is gone.
int coffer_secret_bus_step(sd_bus *bus, uint64_t timeout_usec);

// MARK: Replies and signals

/// Makes the method return of `call` in `*reply`, to append the out arguments to and send with coffer_secret_send.
int coffer_secret_reply_new(sd_bus_message *call, sd_bus_message **reply);

/// Makes the signal `interface`.`member` from `path` in `*signal`, to append to and send with coffer_secret_send.
int coffer_secret_signal_new(sd_bus *bus, const char *path, const char *interface, const char *member,
                             sd_bus_message **signal);

/// Sends `message` on the connection it was made for, and releases it.
int coffer_secret_send(sd_bus_message *message);

/// Sets `error` to the D-Bus error `name` with `text`, and returns the negative value to answer with.
int coffer_secret_error(sd_bus_error *error, const char *name, const char *text);

/// The unique bus name of the message's sender (":1.42"), or NULL.
const char *coffer_secret_sender(sd_bus_message *message);

/// The unique bus name of the sender of the call `bus` is answering now (for a property read or write,
/// whose `message` is the reply or the value), or NULL.
const char *coffer_secret_current_sender(sd_bus *bus);

// MARK: Callers

/// The most supplementary groups a caller's credentials are read with (Linux's NGROUPS_MAX).
#define COFFER_SECRET_MAX_GROUPS 65536

/// What the bus daemon says of a connection (org.freedesktop.DBus.GetConnectionCredentials): what the kernel
/// reported when it connected (SO_PEERCRED, SO_PEERGROUPS, SO_PEERSEC). `has_uid`/`has_pid` are 0 when the bus
/// did not give them; `groups` (the effective and supplementary groups, malloc'ed, freed by
/// coffer_secret_credentials_free) has `group_count` entries; `label` is the LSM label or NULL.
typedef struct {
    int has_uid;
    uint32_t uid;
    int has_pid;
    uint32_t pid;
    uint32_t *groups;
    size_t group_count;
    char *label;
} coffer_secret_credentials;

/// Asks the bus for the credentials of the connection named `name` (a unique name), into `*out`, which is
/// zeroed first. Returns 0, or a negative errno (-ESRCH when the name has no owner any more).
int coffer_secret_credentials_of(sd_bus *bus, const char *name, coffer_secret_credentials *out);

/// Frees what coffer_secret_credentials_of allocated in `credentials`.
void coffer_secret_credentials_free(coffer_secret_credentials *credentials);

// MARK: Writing arguments (types s, o, b, t, ay and containers: a, r, v, e)

/// Appends a string (`s`).
int coffer_secret_append_string(sd_bus_message *message, const char *value);
/// Appends an object path (`o`).
int coffer_secret_append_object_path(sd_bus_message *message, const char *value);
/// Appends a boolean (`b`).
int coffer_secret_append_bool(sd_bus_message *message, int value);
/// Appends an unsigned 64-bit integer (`t`).
int coffer_secret_append_uint64(sd_bus_message *message, uint64_t value);
/// Appends a byte array (`ay`).
int coffer_secret_append_bytes(sd_bus_message *message, const void *bytes, size_t count);
/// Opens a container: `type` 'a' (array of `contents`), 'r' (struct of `contents`), 'v' (variant holding
/// one `contents`) or 'e' (dictionary entry of `contents`).
int coffer_secret_open(sd_bus_message *message, char type, const char *contents);
/// Closes the innermost open container.
int coffer_secret_close(sd_bus_message *message);

// MARK: Reading arguments

/// Reads a string (`type` 's') or object path ('o'); the text stays valid as long as the message. Returns
/// > 0 when read, 0 at the end of the enclosing container, or a negative errno.
int coffer_secret_read_string(sd_bus_message *message, char type, const char **value);
/// Reads a boolean (`b`).
int coffer_secret_read_bool(sd_bus_message *message, int *value);
/// Reads a byte array (`ay`); the bytes stay valid as long as the message.
int coffer_secret_read_bytes(sd_bus_message *message, const void **bytes, size_t *count);
/// Enters a container of `type` ('a', 'r', 'v', 'e') holding `contents`. Returns > 0 when entered, 0 at the end
/// of the enclosing array, or a negative errno.
int coffer_secret_enter(sd_bus_message *message, char type, const char *contents);
/// Leaves the innermost entered container.
int coffer_secret_exit(sd_bus_message *message);
/// The type and contents of the next argument: `*type` is 0 at the end of the container; `*contents` is set
/// for containers (a variant's signature).
int coffer_secret_peek(sd_bus_message *message, char *type, const char **contents);
/// Skips the next argument, whatever its type.
int coffer_secret_skip(sd_bus_message *message);

// MARK: Calling another provider (coffer-secret-service --import)

/// Makes a method call to `destination`'s object `path`, `interface`.`member`, in `*ret`, to append the in
/// arguments to and send with coffer_secret_call.
int coffer_secret_call_new(sd_bus *bus, const char *destination, const char *path, const char *interface,
                           const char *member, sd_bus_message **ret);

/// Sends `call`, waits at most `timeout_usec` (0: sd-bus's default of 25 s) for the answer, and releases `call`.
/// Returns >= 0 with `*reply` set (released by the caller with sd_bus_message_unref), or a negative errno; when
/// the answer is a D-Bus error, `*error_name` is set to its name (malloc'ed, freed by the caller).
int coffer_secret_call(sd_bus *bus, sd_bus_message *call, uint64_t timeout_usec, sd_bus_message **reply,
                       char **error_name);

/// A signal caught by coffer_secret_catch_signal: `received` becomes 1 with the first one, and `message` holds
/// it (a reference the caller releases with sd_bus_message_unref).
typedef struct {
    int received;
    sd_bus_message *message;
} coffer_secret_caught;

/// Catches the first signal `interface`.`member` from `sender`'s object `path` into `*caught`, which must
/// outlive `*slot`: the caller releases the match with sd_bus_slot_unref before `caught` goes away. Signals are
/// delivered while the connection is processed (coffer_secret_bus_step). Returns 0 or a negative errno.
int coffer_secret_catch_signal(sd_bus *bus, const char *sender, const char *path, const char *interface,
                               const char *member, coffer_secret_caught *caught, sd_bus_slot **slot);

/// Reads an unsigned 64-bit integer (`t`).
int coffer_secret_read_uint64(sd_bus_message *message, uint64_t *value);

/// Reads an unsigned 32-bit integer (`u`).
int coffer_secret_read_uint32(sd_bus_message *message, uint32_t *value);

#endif
