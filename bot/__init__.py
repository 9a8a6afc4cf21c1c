"""The imperative shell: config, client, storage, the table service, delivery, timers."""
