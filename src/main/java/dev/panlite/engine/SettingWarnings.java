package dev.panlite.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warnings about settings the loaded SQLite cannot apply (the incumbent's deprecated PRAGMAs):
 * logged once per configuration, not once per connection, so a pool opening hundreds of
 * connections with the same URL logs one line.
 */
final class SettingWarnings {
    private static final System.Logger LOG = System.getLogger("dev.panlite");
    /** Bounded: a process with ever new URLs stops remembering (and may log again) past this. */
    private static final int MAX_REMEMBERED = 10_000;
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private SettingWarnings() {}

    /** Logs {@code message} unless it was logged already for this configuration and setting. */
    static void once(String configuration, String settingKey, String message) {
        if (WARNED.size() >= MAX_REMEMBERED) {
            WARNED.clear();
        }
        if (WARNED.add(settingKey + '\n' + configuration)) {
            LOG.log(System.Logger.Level.WARNING, message);
        }
    }
}
