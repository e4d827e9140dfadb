package dev.panlite.spring;

import org.springframework.data.annotation.Id;

/** A counter row the lock test increments from several threads. */
public class Tally {
    @Id
    Long id;
    long n;
}
