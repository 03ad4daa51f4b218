package org.citylib.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** Records saved by the desktop import client, sent to the server as one object. */
public class ImportBatch implements Serializable {
    private static final long serialVersionUID = 3L;

    private final List<String> records = new ArrayList<>();
    private String branch;

    public int size() {
        return records.size();
    }

    public String getBranch() {
        return branch;
    }

    public void setBranch(String branch) {
        this.branch = branch;
    }
}
