#ifndef C_SYSTEMD_BUS_H
#define C_SYSTEMD_BUS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

/// Which bus coffer_bus_connect opens when it is given no address.
typedef enum {
    /// The system bus (sd_bus_open_system, which honours DBUS_SYSTEM_BUS_ADDRESS).
    COFFER_BUS_SYSTEM = 0,
    /// The user's session bus (sd_bus_open_user, which honours DBUS_SESSION_BUS_ADDRESS).
    COFFER_BUS_SESSION = 1,
} coffer_bus_kind;

/// Opens a client connection to the bus at `address` when it is not NULL, else to the `kind` bus. Returns 0
/// with `*ret` set, or a negative errno (nothing is left open). Close it with sd_bus_flush_close_unref.
int coffer_bus_connect(const char *address, coffer_bus_kind kind, sd_bus **ret);

/// Opens a client connection to a D-Bus bus: the system bus when `address` is NULL (sd_bus_open_system,
/// which honours DBUS_SYSTEM_BUS_ADDRESS), otherwise the bus at `address` (for example
/// "unix:path=/run/dbus/system_bus_socket"). Calls made with a timeout of 0, and the bus's own calls
/// (Hello, AddMatch), wait at most `default_timeout_usec`. Returns 0 with `*ret` set, or a negative errno.
/// Close the connection with sd_bus_flush_close_unref.
int coffer_bus_open(const char *address, uint64_t default_timeout_usec, sd_bus **ret);

/// Calls `interface`.`member` on the object `path` of `destination`, with one string argument when
/// `argument` is not NULL and none otherwise, and waits at most `timeout_usec` for the answer
/// (sd_bus_call_method, which Swift cannot call: it takes varargs). Returns a non-negative value with
/// `*reply` set (release it with sd_bus_message_unref), or a negative errno; when the peer answered with
/// a D-Bus error, `error` holds its name and message (free it with sd_bus_error_free).
int coffer_bus_call(sd_bus *bus, const char *destination, const char *path, const char *interface,
                    const char *member, const char *argument, uint64_t timeout_usec, sd_bus_error *error,
                    sd_bus_message **reply);

/// Asks the bus to deliver the messages that match `rule` (a D-Bus match rule), without a handler:
/// sd_bus_process then returns each of them to its caller. The match lasts as long as the connection.
/// Returns 0 or a negative errno.
int coffer_bus_add_match(sd_bus *bus, const char *rule);

// The sd-bus functions Swift calls, under names of their own: libsystemd is loaded on first use (CSystemdLoader),
// so Swift must not bind to its symbols. Each does exactly what the sd-bus function of the same name after
// `coffer_` does.

sd_bus *coffer_sd_bus_flush_close_unref(sd_bus *bus);
int coffer_sd_bus_get_fd(sd_bus *bus);
sd_bus_message *coffer_sd_bus_message_unref(sd_bus_message *message);
sd_bus_slot *coffer_sd_bus_slot_unref(sd_bus_slot *slot);
void coffer_sd_bus_error_free(sd_bus_error *error);
int coffer_sd_bus_process(sd_bus *bus, sd_bus_message **message);
int coffer_sd_bus_wait(sd_bus *bus, uint64_t timeout_usec);
const char *coffer_sd_bus_message_get_sender(sd_bus_message *message);
const char *coffer_sd_bus_message_get_path(sd_bus_message *message);
int coffer_sd_bus_message_is_signal(sd_bus_message *message, const char *interface, const char *member);
int coffer_sd_bus_message_read_basic(sd_bus_message *message, char type, void *value);
int coffer_sd_bus_message_read_strv(sd_bus_message *message, char ***list);

#endif
