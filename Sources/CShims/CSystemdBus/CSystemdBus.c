#include "CSystemdBus.h"
#include "CSystemdLoader.h"

#include <stddef.h>

int coffer_bus_connect(const char *address, coffer_bus_kind kind, sd_bus **ret) {
    sd_bus *bus = NULL;
    int r;
    *ret = NULL;
    if (address == NULL) {
        r = kind == COFFER_BUS_SESSION ? sd_bus_open_user(&bus) : sd_bus_open_system(&bus);
    } else {
        r = sd_bus_new(&bus);
        if (r < 0) {
            return r;
        }
        r = sd_bus_set_address(bus, address);
        if (r >= 0) {
            r = sd_bus_set_bus_client(bus, 1);
        }
        if (r >= 0) {
            r = sd_bus_start(bus);
        }
    }
    if (r < 0) {
        sd_bus_flush_close_unref(bus);
        return r;
    }
    *ret = bus;
    return 0;
}

int coffer_bus_open(const char *address, uint64_t default_timeout_usec, sd_bus **ret) {
    sd_bus *bus = NULL;
    int r = coffer_bus_connect(address, COFFER_BUS_SYSTEM, &bus);
    *ret = NULL;
    if (r < 0) {
        return r;
    }
    r = sd_bus_set_method_call_timeout(bus, default_timeout_usec);
    if (r < 0) {
        sd_bus_flush_close_unref(bus);
        return r;
    }
    *ret = bus;
    return 0;
}

int coffer_bus_call(sd_bus *bus, const char *destination, const char *path, const char *interface,
                    const char *member, const char *argument, uint64_t timeout_usec, sd_bus_error *error,
                    sd_bus_message **reply) {
    sd_bus_message *call = NULL;
    *reply = NULL;
    int r = sd_bus_message_new_method_call(bus, &call, destination, path, interface, member);
    if (r < 0) {
        return r;
    }
    if (argument != NULL) {
        r = sd_bus_message_append_basic(call, 's', argument);
    }
    if (r >= 0) {
        r = sd_bus_call(bus, call, timeout_usec, error, reply);
    }
    sd_bus_message_unref(call);
    return r;
}

int coffer_bus_add_match(sd_bus *bus, const char *rule) {
    /* A NULL handler: sd-bus then only asks the bus for the messages (AddMatch), and sd_bus_process hands
       each one back, as it does every message no handler took. */
    return sd_bus_add_match(bus, NULL, rule, NULL, NULL);
}

// The sd-bus functions Swift calls (see CSystemdBus.h).
sd_bus *coffer_sd_bus_flush_close_unref(sd_bus *bus) { return sd_bus_flush_close_unref(bus); }
int coffer_sd_bus_get_fd(sd_bus *bus) { return sd_bus_get_fd(bus); }
sd_bus_message *coffer_sd_bus_message_unref(sd_bus_message *message) { return sd_bus_message_unref(message); }
sd_bus_slot *coffer_sd_bus_slot_unref(sd_bus_slot *slot) { return sd_bus_slot_unref(slot); }
void coffer_sd_bus_error_free(sd_bus_error *error) { sd_bus_error_free(error); }
int coffer_sd_bus_process(sd_bus *bus, sd_bus_message **message) { return sd_bus_process(bus, message); }
int coffer_sd_bus_wait(sd_bus *bus, uint64_t timeout_usec) { return sd_bus_wait(bus, timeout_usec); }
const char *coffer_sd_bus_message_get_sender(sd_bus_message *message) { return sd_bus_message_get_sender(message); }
const char *coffer_sd_bus_message_get_path(sd_bus_message *message) { return sd_bus_message_get_path(message); }
int coffer_sd_bus_message_is_signal(sd_bus_message *message, const char *interface, const char *member) { return sd_bus_message_is_signal(message, interface, member); }
int coffer_sd_bus_message_read_basic(sd_bus_message *message, char type, void *value) { return sd_bus_message_read_basic(message, type, value); }
int coffer_sd_bus_message_read_strv(sd_bus_message *message, char ***list) { return sd_bus_message_read_strv(message, list); }
