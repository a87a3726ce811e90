#ifndef C_SYSTEMD_LOADER_H
#define C_SYSTEMD_LOADER_H

// libsystemd's sd-bus, loaded when it is first used rather than when the program starts.
//
// A C file that calls sd-bus includes this header after <systemd/sd-bus.h>. Each function it may call is then a
// pointer in one table, filled by `dlopen` of libsystemd and `dlsym`, once, on the first call: a program that never
// reaches D-Bus (a lookup through cofferd, a credential helper) does not load libsystemd and the six libraries it
// brings, and does not pay for binding their symbols at every start. A function missing from this list does not
// compile out silently: the C file then links against a symbol no library provides. Variadic functions
// (sd_bus_message_append, sd_bus_reply_method_errorf, …) are called through pointers of their own variadic type.
//
// sd-bus vtables name the data symbol `sd_bus_object_vtable_format` in their first entry, which a static table
// cannot hold before libsystemd is loaded: build them with COFFER_SD_BUS_VTABLE_START and give them
// coffer_systemd()->sd_bus_object_vtable_format before registering them.
//
// Not for Swift: the wrappers the C targets export are what Swift calls.

#include <systemd/sd-bus.h>

/// The sd-bus functions Coffer's C targets call.
#define COFFER_SYSTEMD_FUNCTIONS(X) \
    X(sd_bus_add_fallback) \
    X(sd_bus_add_fallback_vtable) \
    X(sd_bus_add_filter) \
    X(sd_bus_add_match) \
    X(sd_bus_add_object_vtable) \
    X(sd_bus_call) \
    X(sd_bus_call_method) \
    X(sd_bus_error_free) \
    X(sd_bus_error_has_name) \
    X(sd_bus_error_set) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_get_current_message) \
    X(sd_bus_get_fd) \
    X(sd_bus_match_signal) \
    X(sd_bus_message_append_array) \
    X(sd_bus_message_append_basic) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) \
    X(sd_bus_message_get_interface) \
    X(sd_bus_message_get_member) \
    X(sd_bus_message_get_path) \
    X(sd_bus_message_get_sender) \
    X(sd_bus_message_is_method_call) \
    X(sd_bus_message_is_signal) \
    X(sd_bus_message_new_method_call) \
    X(sd_bus_message_new_method_return) \
    X(sd_bus_message_new_signal) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_peek_type) \
    X(sd_bus_message_read) \
    X(sd_bus_message_read_array) \
    X(sd_bus_message_read_basic) \
    X(sd_bus_message_read_strv) \
    X(sd_bus_message_ref) \
    X(sd_bus_message_rewind) \
    X(sd_bus_message_skip) \
    X(sd_bus_message_unref) \
    X(sd_bus_new) \
    X(sd_bus_open_system) \
    X(sd_bus_open_user) \
    X(sd_bus_process) \
    X(sd_bus_reply_method_errorf) \
    X(sd_bus_request_name) \
    X(sd_bus_send) \
    X(sd_bus_set_address) \
    X(sd_bus_set_bus_client) \
    X(sd_bus_set_method_call_timeout) \
    X(sd_bus_slot_unref) \
    X(sd_bus_start) \
    X(sd_bus_wait)

/// One pointer per function, of the function's own type, and the address of the vtable format marker.
struct coffer_systemd {
#define COFFER_SYSTEMD_FIELD(name) __typeof__(&name) name;
    COFFER_SYSTEMD_FUNCTIONS(COFFER_SYSTEMD_FIELD)
#undef COFFER_SYSTEMD_FIELD
    const unsigned *sd_bus_object_vtable_format;
};

/// The table, loading libsystemd on the first call (thread-safe). A libsystemd that cannot be loaded, or lacks a
/// function, ends the process with a message naming it: the same outcome as the dynamic loader's at start,
/// before this table existed.
const struct coffer_systemd *coffer_systemd(void);

/// SD_BUS_VTABLE_START without the format marker's address (NULL until set from coffer_systemd()).
#define COFFER_SD_BUS_VTABLE_START(_flags)                                              \
    {                                                                                   \
        .type = _SD_BUS_VTABLE_START, .flags = _flags,                                  \
        .x = {.start = {.element_size = sizeof(sd_bus_vtable),                          \
                        .features = _SD_BUS_VTABLE_PARAM_NAMES,                         \
                        .vtable_format_reference = NULL}},                              \
    }

#ifndef COFFER_SYSTEMD_LOADER_IMPLEMENTATION
#define sd_bus_add_fallback (coffer_systemd()->sd_bus_add_fallback)
#define sd_bus_add_fallback_vtable (coffer_systemd()->sd_bus_add_fallback_vtable)
#define sd_bus_add_filter (coffer_systemd()->sd_bus_add_filter)
#define sd_bus_add_match (coffer_systemd()->sd_bus_add_match)
#define sd_bus_add_object_vtable (coffer_systemd()->sd_bus_add_object_vtable)
#define sd_bus_call (coffer_systemd()->sd_bus_call)
#define sd_bus_call_method (coffer_systemd()->sd_bus_call_method)
#define sd_bus_error_free (coffer_systemd()->sd_bus_error_free)
#define sd_bus_error_has_name (coffer_systemd()->sd_bus_error_has_name)
#define sd_bus_error_set (coffer_systemd()->sd_bus_error_set)
#define sd_bus_flush_close_unref (coffer_systemd()->sd_bus_flush_close_unref)
#define sd_bus_get_current_message (coffer_systemd()->sd_bus_get_current_message)
#define sd_bus_get_fd (coffer_systemd()->sd_bus_get_fd)
#define sd_bus_match_signal (coffer_systemd()->sd_bus_match_signal)
#define sd_bus_message_append_array (coffer_systemd()->sd_bus_message_append_array)
#define sd_bus_message_append_basic (coffer_systemd()->sd_bus_message_append_basic)
#define sd_bus_message_close_container (coffer_systemd()->sd_bus_message_close_container)
#define sd_bus_message_enter_container (coffer_systemd()->sd_bus_message_enter_container)
#define sd_bus_message_exit_container (coffer_systemd()->sd_bus_message_exit_container)
#define sd_bus_message_get_interface (coffer_systemd()->sd_bus_message_get_interface)
#define sd_bus_message_get_member (coffer_systemd()->sd_bus_message_get_member)
#define sd_bus_message_get_path (coffer_systemd()->sd_bus_message_get_path)
#define sd_bus_message_get_sender (coffer_systemd()->sd_bus_message_get_sender)
#define sd_bus_message_is_method_call (coffer_systemd()->sd_bus_message_is_method_call)
#define sd_bus_message_is_signal (coffer_systemd()->sd_bus_message_is_signal)
#define sd_bus_message_new_method_call (coffer_systemd()->sd_bus_message_new_method_call)
#define sd_bus_message_new_method_return (coffer_systemd()->sd_bus_message_new_method_return)
#define sd_bus_message_new_signal (coffer_systemd()->sd_bus_message_new_signal)
#define sd_bus_message_open_container (coffer_systemd()->sd_bus_message_open_container)
#define sd_bus_message_peek_type (coffer_systemd()->sd_bus_message_peek_type)
#define sd_bus_message_read (coffer_systemd()->sd_bus_message_read)
#define sd_bus_message_read_array (coffer_systemd()->sd_bus_message_read_array)
#define sd_bus_message_read_basic (coffer_systemd()->sd_bus_message_read_basic)
#define sd_bus_message_read_strv (coffer_systemd()->sd_bus_message_read_strv)
#define sd_bus_message_ref (coffer_systemd()->sd_bus_message_ref)
#define sd_bus_message_rewind (coffer_systemd()->sd_bus_message_rewind)
#define sd_bus_message_skip (coffer_systemd()->sd_bus_message_skip)
#define sd_bus_message_unref (coffer_systemd()->sd_bus_message_unref)
#define sd_bus_new (coffer_systemd()->sd_bus_new)
#define sd_bus_open_system (coffer_systemd()->sd_bus_open_system)
#define sd_bus_open_user (coffer_systemd()->sd_bus_open_user)
#define sd_bus_process (coffer_systemd()->sd_bus_process)
#define sd_bus_reply_method_errorf (coffer_systemd()->sd_bus_reply_method_errorf)
#define sd_bus_request_name (coffer_systemd()->sd_bus_request_name)
#define sd_bus_send (coffer_systemd()->sd_bus_send)
#define sd_bus_set_address (coffer_systemd()->sd_bus_set_address)
#define sd_bus_set_bus_client (coffer_systemd()->sd_bus_set_bus_client)
#define sd_bus_set_method_call_timeout (coffer_systemd()->sd_bus_set_method_call_timeout)
#define sd_bus_slot_unref (coffer_systemd()->sd_bus_slot_unref)
#define sd_bus_start (coffer_systemd()->sd_bus_start)
#define sd_bus_wait (coffer_systemd()->sd_bus_wait)
#endif

#endif
